import BackupFormat
import Foundation
import ItemStore
import KeychainModel
import Query

/// An item that follows its owner to the account's other devices: its persistent reference (what ties it to its
/// sync record) and its content, as a backup holds it.
public struct SynchronizableItem: Sendable {
    /// The item's persistent reference.
    public let persistentRef: Data
    /// The item's class, protection class, attributes and data as stored.
    public let record: BackupRecord
}

/// What ``KeychainEngine/synchronizableItems(caller:)`` read.
public struct SynchronizableItems: Sendable {
    /// The items that sync.
    public var items: [SynchronizableItem] = []
    /// Rows marked `sync` whose protection class is locked now: they are read once it is unlocked.
    public var locked = 0
}

extension KeychainEngine {
    /// Every item of the caller's groups that syncs (``SyncEligibility``), with its attributes and data as stored.
    ///
    /// Only rows whose `sync` blind index says synchronizable are read. A row of a locked class is counted in
    /// ``SynchronizableItems/locked`` and read later, not failed; a row that cannot be decrypted for good is left
    /// out, as a search leaves it out.
    public func synchronizableItems(caller: CallerContext) throws(EngineRefusal) -> SynchronizableItems {
        guard caller.hasAnyGroup else { throw .noGroups }
        return try mapped {
            try store.read { reader in
                var found = SynchronizableItems()
                for itemClass in Self.backupClasses {
                    var selection = Self.everyRow(of: itemClass, caller: caller)
                    if let sync = AttributeCatalogue.descriptor(for: QueryKey.synchronizable, in: itemClass) {
                        selection.equal[QueryKey.synchronizable] = sync.matchKey(of: .number(1))
                    }
                    try reader.forEachRow(selection) { row in
                        guard SyncEligibility.allows(row.protection) else { return }
                        do {
                            let encoded = try reader.openAttributes(row)
                            guard SyncEligibility.syncs(try AttributeSet(decoding: encoded), in: itemClass) else { return }
                            let record = BackupRecord(
                                itemClass: itemClass, protection: row.protection, attributes: encoded, secret: try reader.openSecret(row))
                            found.items.append(SynchronizableItem(persistentRef: row.persistentRef, record: record))
                        } catch  where StatusMapping.isLocked(error) {
                            found.locked += 1
                        } catch  where StatusMapping.isUndecryptable(error) {
                            logger.error(
                                "leaving an item that cannot be decrypted out of sync", metadata: ["class": "\(itemClass.rawValue)", "row": "\(row.rowID)"])
                        }
                    }
                }
                return found
            }
        }
    }
}
