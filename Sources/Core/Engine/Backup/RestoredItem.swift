import BackupFormat
import Foundation
import ItemStore
import KeychainModel
import Query

/// A backup record checked and made ready for this keychain: its attributes decoded, its blind-index inputs
/// computed (the store seals it under this keychain's keys).
struct RestoredItem {
    let itemClass: ItemClass
    let attributes: AttributeSet
    let secret: Data?
    let newItem: NewItem

    /// Checks `record` as an add would check an item: a stored class, a protection class that migrates and
    /// matches its `pdmn`, an access group the caller may use, nothing that must stay on its device.
    init(_ record: BackupRecord, caller: CallerContext) throws(KeychainFailure) {
        guard ItemStore.supports(record.itemClass) else {
            throw KeychainFailure(.param, reason: "the backup holds an item of class \(record.itemClass.rawValue), which the keychain does not store")
        }
        let attributes: AttributeSet
        do {
            attributes = try AttributeSet(decoding: record.attributes)
        } catch {
            throw KeychainFailure(.decode, reason: "the backup holds an item whose attributes cannot be decoded")
        }
        try self.init(itemClass: record.itemClass, protection: record.protection, attributes: attributes, secret: record.secret, caller: caller)
    }

    /// An item with these parts, checked (see ``init(_:caller:)``).
    init(itemClass: ItemClass, protection: ProtectionClass, attributes: AttributeSet, secret: Data?, caller: CallerContext) throws(KeychainFailure) {
        guard BackupEligibility.protected(attributes) == protection else {
            throw KeychainFailure(.decode, reason: "the backup holds an item whose protection class does not match its attributes")
        }
        if let reason = BackupEligibility.reason(for: attributes, in: itemClass) {
            throw KeychainFailure(.param, reason: "the backup holds an item that may not leave its device (\(reason))")
        }
        guard case .string(let group)? = attributes[QueryKey.accessGroup] else {
            throw KeychainFailure(.decode, reason: "the backup holds an item without an access group")
        }
        guard caller.hasAnyGroup, caller.mayUse(group) else {
            throw KeychainFailure(.missingEntitlement, reason: "the backup holds items of access group \(group), which this caller may not use")
        }
        self.itemClass = itemClass
        self.attributes = attributes
        self.secret = secret
        newItem = NewItem(
            itemClass: itemClass, protection: protection, attributes: attributes.encoded(), secret: secret,
            indexValues: ItemIndexing.indexValues(of: attributes, in: itemClass),
            uniqueKey: ItemIndexing.uniqueKey(of: attributes, in: itemClass))
    }

    /// The same item under another account (policy both), or nil for a class whose items are identified by
    /// what they are (certificates, keys).
    func renamed(_ attempt: Int, caller: CallerContext) -> RestoredItem? {
        guard itemClass == .genericPassword || itemClass == .internetPassword else { return nil }
        var attributes = attributes
        let account: String
        if case .string(let existing)? = attributes[QueryKey.account] { account = existing } else { account = "" }
        attributes[QueryKey.account] = .string(account + (attempt == 1 ? " (restored)" : " (restored \(attempt))"))
        return try? RestoredItem(
            itemClass: itemClass, protection: newItem.protection, attributes: attributes, secret: secret, caller: caller)
    }

    /// The non-secret attributes that name the item, for people.
    var summary: String {
        var parts: [String] = []
        for (code, name) in [(QueryKey.service, "service"), (QueryKey.server, "server"), (QueryKey.account, "account"), (QueryKey.label, "label")] {
            if case .string(let value)? = attributes[code], !value.isEmpty { parts.append("\(name) \"\(value)\"") }
        }
        return parts.isEmpty ? "an item without a label" : parts.joined(separator: ", ")
    }
}
