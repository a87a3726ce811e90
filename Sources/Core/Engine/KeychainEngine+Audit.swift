import AuditTrail
import Foundation
import Keystore

extension KeychainEngine {
    /// The keychain's audit journal, opened (made when absent) on first use with the keystore's audit keys. A
    /// journal that cannot be opened is tried again on the next call.
    public func auditJournal() throws(AuditJournalError) -> AuditJournal {
        try journal.withLock { (opened: inout AuditJournal?) throws(AuditJournalError) -> AuditJournal in
            if let opened { return opened }
            let keys = keystore.auditKeys()
            let fresh = try AuditJournal(folder: keystore.folder.auditURL.path, keys: AuditKeys(sealing: keys.sealing, chaining: keys.chaining))
            opened = fresh
            return fresh
        }
    }

    /// Whether the journal verifies, read from its files: also when it is too damaged to open.
    public func verifyAuditJournal() -> AuditVerification {
        if let journal = try? auditJournal() { return journal.verify() }
        let keys = keystore.auditKeys()
        return AuditJournal.verify(folder: keystore.folder.auditURL.path, keys: AuditKeys(sealing: keys.sealing, chaining: keys.chaining))
    }
}
