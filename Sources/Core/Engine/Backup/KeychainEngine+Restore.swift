import BackupFormat
import Foundation
import ItemStore
import KeychainModel
import Query

#if canImport(Glibc)
import Glibc
#endif

extension KeychainEngine {
    /// Writes a backup's items, the records of `streams` in order, in ONE transaction, sealed under this
    /// keychain's keys and blind indexes: a crash or an error part-way leaves the keychain as it was. The
    /// records are decoded and written one at a time, so a restore of any size holds only its streams.
    ///
    /// Every record is checked (``RestoredItem``) as it comes; one refused record (or a malformed stream,
    /// -26275) refuses the restore, and the transaction is rolled back. An item whose primary key (§1.4) is
    /// taken by an identical item is counted as identical; by a different one, `policy` decides. A taken row
    /// that cannot be decrypted is replaced, as an add replaces it (§10.4); a row of a locked class fails the
    /// restore with -25308.
    public func restoreBackup(
        _ streams: [SecretBytes], policy: RestoreOutcome.Policy, caller: CallerContext
    ) throws(KeychainFailure) -> RestoreOutcome {
        var itemCount = 0
        do throws(BackupFormatError) {
            for stream in streams { itemCount += try BackupRecordStream.declaredCount(of: stream) }
        } catch {
            throw KeychainFailure(.decode, reason: error.description)
        }
        let pause = RestorePauseHook.fromEnvironment(itemCount: itemCount)
        do {
            return try store.write { writer in
                var outcome = RestoreOutcome()
                var written = 0
                for stream in streams {
                    do throws(RecordWalkError<any Error>) {
                        try BackupRecordStream.forEachRecord(in: stream) { (record) throws(any Error) in
                            try restore(RestoredItem(record, caller: caller), policy: policy, caller: caller, writer: writer, into: &outcome)
                            written += 1
                            pause?.reached(written)
                        }
                    } catch {
                        switch error {
                        case .format(let failure): throw KeychainFailure(.decode, reason: failure.description)
                        case .body(let failure): throw failure
                        }
                    }
                }
                return outcome
            }
        } catch let failure as KeychainFailure {
            throw failure
        } catch {
            if StatusMapping.isLocked(error) {
                throw KeychainFailure(.interactionNotAllowed, reason: "the keychain is locked; unlock it before restoring")
            }
            let status = StatusMapping.status(for: error)
            logger.error("restore failed: \(error)")
            throw KeychainFailure(status, reason: "the restore failed and nothing was written")
        }
    }

    private func restore(
        _ item: RestoredItem, policy: RestoreOutcome.Policy, caller: CallerContext, writer: ItemWriter, into outcome: inout RestoreOutcome
    ) throws {
        guard let existing = try insertOrFindConflict(item.newItem, writer: writer) else {
            outcome.added += 1
            return
        }
        let attributes: AttributeSet
        let secret: Data?
        do {
            attributes = try AttributeSet(decoding: writer.openAttributes(existing))
            secret = try writer.openSecret(existing)
        } catch  where StatusMapping.isUndecryptable(error) {
            logger.warning("a restore replaced an undecryptable item that had the same primary key", metadata: ["row": "\(existing.rowID)"])
            try writer.replace(rowID: existing.rowID, with: item.newItem)
            outcome.added += 1
            return
        }
        if attributes == item.attributes, secret == item.secret {
            outcome.identical += 1
            return
        }
        let resolution: RestoreOutcome.Resolution
        switch policy {
        case .keep:
            resolution = .keptExisting
        case .replace:
            try writer.replace(rowID: existing.rowID, with: item.newItem)
            resolution = .replaced
        case .both:
            resolution = try keepBoth(item, caller: caller, writer: writer) ? .keptBoth : .notRestorable
        }
        outcome.conflicts.append(RestoreOutcome.Conflict(itemClass: item.itemClass, summary: item.summary, resolution: resolution))
    }

    /// Inserts `item`; when its primary key is taken, inserts nothing and returns the row that holds it.
    private func insertOrFindConflict(_ item: NewItem, writer: ItemWriter) throws -> StoredItem? {
        do {
            try writer.insert(item)
            return nil
        } catch ItemStoreError.duplicateItem {
            guard let existing = try writer.select(ItemSelection(itemClass: item.itemClass, uniqueKey: item.uniqueKey)).first else {
                throw ItemStoreError.duplicateItem
            }
            return existing
        }
    }

    /// Adds a password under its account followed by ` (restored)` (or ` (restored N)`, the first N free up to
    /// 100); false for a class that cannot be renamed, or when no name is free.
    private func keepBoth(_ item: RestoredItem, caller: CallerContext, writer: ItemWriter) throws -> Bool {
        for attempt in 1...100 {
            guard let renamed = item.renamed(attempt, caller: caller) else { return false }
            if try insertOrFindConflict(renamed.newItem, writer: writer) == nil { return true }
        }
        return false
    }
}

/// A test hook: with `COFFER_TEST_RESTORE_PAUSE` set to a path, a restore creates that file once half of its
/// items are written inside the transaction, then waits there (60 s), so a test can kill the process mid-restore.
/// Nothing is paused when the variable is unset.
struct RestorePauseHook {
    let path: String
    let at: Int

    static func fromEnvironment(itemCount: Int) -> RestorePauseHook? {
        guard let path = ProcessInfo.processInfo.environment["COFFER_TEST_RESTORE_PAUSE"], !path.isEmpty else { return nil }
        return RestorePauseHook(path: path, at: max(1, itemCount / 2))
    }

    func reached(_ written: Int) {
        guard written == at else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor >= 0 { close(descriptor) }
        sleep(60)
    }
}
