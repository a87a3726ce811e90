import BackupFormat
import Foundation
import ItemStore
import KeychainModel
import Query

/// What ``KeychainEngine/exportBackup(caller:)`` read.
public struct ExportedBackup: Sendable {
    /// The items that may leave the device, attributes and data as stored: record streams of about
    /// ``BackupRecordStream/partBytes`` each, in zeroizing memory.
    public var parts: [SecretBytes] = []
    /// How many items the parts hold.
    public var itemCount = 0
    /// How many stay here: this device only, `akpu`, non-extractable or token keys, bound to this device.
    public var thisDeviceOnly = 0, passcodeSetOnly = 0, nonExtractableKeys = 0, deviceBound = 0

    mutating func leave(_ reason: BackupEligibility.Reason) {
        switch reason {
        case .thisDeviceOnly: thisDeviceOnly += 1
        case .passcodeSetOnly: passcodeSetOnly += 1
        case .nonExtractableKey: nonExtractableKeys += 1
        case .deviceBound: deviceBound += 1
        }
    }
}

extension KeychainEngine {
    /// The classes a backup holds, in the order it holds them. Identities are a certificate and a key.
    static let backupClasses: [ItemClass] = [.genericPassword, .internetPassword, .certificate, .key]

    /// Reads every item of the caller's groups that may leave the device (``BackupEligibility``), with its
    /// attributes and its data as stored: a secret sealed with an application password stays sealed. The rows
    /// are read one at a time and written into record streams of a few MiB, in one read transaction.
    ///
    /// A row of a locked class fails the export with -25308 (a backup is all the items or none); a row that
    /// cannot be decrypted for good is left out, as a search leaves it out (§10.7).
    public func exportBackup(caller: CallerContext) throws(EngineRefusal) -> ExportedBackup {
        guard caller.hasAnyGroup else { throw .noGroups }
        return try mapped {
            try store.read { reader in
                var exported = ExportedBackup()
                var builder = BackupRecordStream.PartBuilder(maximumBytes: BackupRecordStream.partBytes)
                for itemClass in Self.backupClasses {
                    try reader.forEachRow(Self.everyRow(of: itemClass, caller: caller)) { row in
                        if let reason = BackupEligibility.reason(for: row.protection) {
                            exported.leave(reason)
                            return
                        }
                        do {
                            let encoded = try reader.openAttributes(row)
                            let attributes = try AttributeSet(decoding: encoded)
                            if let reason = BackupEligibility.reason(for: attributes, in: itemClass) {
                                exported.leave(reason)
                                return
                            }
                            let secret = try reader.openSecret(row)
                            builder.append(BackupRecord(itemClass: itemClass, protection: row.protection, attributes: encoded, secret: secret))
                        } catch  where StatusMapping.isLocked(error) {
                            throw EngineRefusal(
                                .interactionNotAllowed, .g16,
                                "an item's protection class (\(row.protection.rawValue)) is locked: a backup holds every item or none")
                        } catch  where StatusMapping.isUndecryptable(error) {
                            logger.error(
                                "leaving an item that cannot be decrypted out of a backup", metadata: ["class": "\(itemClass.rawValue)", "row": "\(row.rowID)"])
                        }
                    }
                }
                exported.parts = builder.finish()
                exported.itemCount = builder.recordCount
                return exported
            }
        }
    }

    /// Every row of `itemClass` in the caller's access groups.
    static func everyRow(of itemClass: ItemClass, caller: CallerContext) -> ItemSelection {
        var selection = ItemSelection(itemClass: itemClass)
        if let groups = caller.searchableGroups,
            let group = AttributeCatalogue.descriptor(for: QueryKey.accessGroup, in: itemClass)
        {
            selection.anyOf[QueryKey.accessGroup] = groups.map { group.matchKey(of: .string($0)) }
        }
        return selection
    }
}
