import Foundation
import KeychainModel

/// One audited operation: when, who (as the kernel identified the caller), what, on which items, and how it ended.
///
/// A record never holds a secret or an attribute's value: items are named by their persistent reference and
/// class only. The keychain seals each record into its audit journal; ``encoded()`` is the form it seals, and the
/// form records travel in to `coffer audit show` and the Swift API.
public struct AuditRecord: Sendable, Hashable {
    /// What kind of thing happened.
    public enum Event: UInt8, Sendable, CaseIterable {
        /// A search that returned an item's secret (its data, or a key's private half).
        case secretRead = 1
        case itemAdded, itemUpdated, itemDeleted
        /// A key that never leaves was used: a signature, a decryption, a key agreement.
        case keyUsed
        /// A person was asked, and answered or not (``AuditRecord/detail`` says how).
        case authentication
        case locked, unlocked
        /// The passcode was set, changed or removed, or the erase setting changed.
        case passcodeChanged
        /// A program was registered or removed.
        case registryChanged
        case backup, restore
        /// A device joined, left or was removed from the keychain's sync account.
        case syncDeviceChanged
        /// Whether secret reads the journal cannot record are refused was changed.
        case auditSettingChanged
    }

    /// The journal's number for the record: 0 until it is written.
    public var sequence: UInt64
    public var time: Date
    public var event: Event
    /// The request's name (`copyMatching`, `unlock`…).
    public var operation: String
    /// The caller as the kernel identified it, and the access groups it was given.
    public var caller: CallerIdentity
    public var accessGroups: [String]
    /// The class of the items touched (`genp`, `keys`…), when the operation touches items.
    public var itemClass: String?
    /// The persistent references of the items touched.
    public var items: [Data]
    /// Apple's status the operation ended with (0 for success).
    public var status: Int32
    /// How an authentication ended, or what a registry change did: words, never a value the caller sent.
    public var detail: String?

    /// A record.
    public init(
        sequence: UInt64 = 0, time: Date, event: Event, operation: String, caller: CallerIdentity, accessGroups: [String] = [],
        itemClass: String? = nil, items: [Data] = [], status: Int32, detail: String? = nil
    ) {
        self.sequence = sequence
        self.time = time
        self.event = event
        self.operation = operation
        self.caller = caller
        self.accessGroups = accessGroups
        self.itemClass = itemClass
        self.items = items
        self.status = status
        self.detail = detail
    }
}
