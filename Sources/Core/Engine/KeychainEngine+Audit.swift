import AuditTrail
import Foundation
import KeychainModel
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

    /// Appends `record` (an encoded `AuditRecord`) to the journal, for a program that opened the keychain itself
    /// (`coffer sync`); its sequence number.
    @discardableResult
    public func appendAuditRecord(_ record: [UInt8]) throws(AuditJournalError) -> UInt64 {
        try auditJournal().append(record)
    }

    /// Whether the journal verifies, read from its files: also when it is too damaged to open.
    public func verifyAuditJournal() -> AuditVerification {
        if let journal = try? auditJournal() { return journal.verify() }
        let keys = keystore.auditKeys()
        return AuditJournal.verify(folder: keystore.folder.auditURL.path, keys: AuditKeys(sealing: keys.sealing, chaining: keys.chaining))
    }
}

extension KeychainEngine {
    /// The policy file's content when secret reads the journal cannot record are refused.
    private static let refusingPolicy = "refuse-unrecorded-reads\n"

    /// Whether secret reads (and key uses) the journal cannot record are refused with `errSecIO`, as Vault refuses
    /// requests its audit devices cannot log: off unless the owner set it. A policy file with anything else in it
    /// than the two settings counts as on, so that damage never turns the refusal off.
    public var refusesUnrecordedReads: Bool {
        refusesUnrecorded.withLock { (known: inout Bool?) -> Bool in
            if let known { return known }
            let read: Bool
            do {
                let bytes = try SecureFile.read(keystore.folder.auditPolicyURL, limit: 64)
                read = bytes.map { $0.withUnsafeBytes { String(decoding: $0, as: UTF8.self) } != "serve-unrecorded-reads\n" } ?? false
            } catch {
                read = true
            }
            known = read
            return read
        }
    }

    /// Sets ``refusesUnrecordedReads``, durably.
    public func setRefusesUnrecordedReads(_ refuses: Bool) throws(KeystoreError) {
        try refusesUnrecorded.withLock { (known: inout Bool?) throws(KeystoreError) in
            let text = refuses ? Self.refusingPolicy : "serve-unrecorded-reads\n"
            let bytes = Array(text.utf8)
            var failure: KeystoreError?
            bytes.withUnsafeBytes { buffer in
                do throws(KeystoreError) {
                    try SecureFile.writeAtomically(buffer, to: keystore.folder.auditPolicyURL)
                } catch {
                    failure = error
                }
            }
            if let failure { throw failure }
            known = refuses
        }
    }
}
