import Foundation
import KeychainModel
import KeychainOperations
@testable import KeychainService
import Query
import Synchronization
import Testing

/// Requests that are not item calls leave one record each when the journal keeps their kind: passcode changes, locks
/// and unlocks, authentications (asked or already proved, passed or cancelled), owner proofs, key uses, backups and
/// restores; reads of the lock state leave none.
@Suite("Keychain requests in the audit journal", .timeLimit(.minutes(10)))
struct RequestAuditTests {
    /// A person who types the passcode at the first prompt and cancels the next.
    private final class Person: AuthenticationPrompter {
        private let answers = Mutex(["audit-code"])

        func confirmPasscode(_ question: AuthenticationQuestion, reply: @escaping @Sendable (PasscodeConfirmation) -> Void) {
            reply(
                PasscodeAsking.confirm(question) { _ in
                    guard let next = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return .cancelled }
                    return .passcode(SecretBytes(copying: Array(next.utf8)))
                })
        }
    }

    private static let caller = CallerContext(accessGroups: .list(["com.example.audit"]))

    private static func passcode(_ text: String) -> SecretBytes { SecretBytes(copying: Array(text.utf8)) }

    @Test func eachRequestTheJournalKeepsLeavesOneRecord() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-audit-requests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let service = KeychainService(folder: KeychainFolder(url: url), prompter: Person())
        let handle = { (request: Request) in service.handle(request, caller: Self.caller) }

        #expect(handle(.setPasscode(new: Self.passcode("audit-code"))) == .status(.success))
        #expect(handle(.lockStatus) != .status(.internal))
        let presence = AuthenticationRequirement(factors: [.passcode])
        let context = AuthenticationContextID.random()
        #expect(handle(.authenticate(AuthenticationRequest(context: context, requirement: presence, reason: "AUDIT-REASON"))) == .status(.success))
        #expect(handle(.authenticate(AuthenticationRequest(context: context, requirement: presence, reason: "again"))) == .status(.success))
        let cancelled = handle(.authenticate(AuthenticationRequest(context: .random(), requirement: presence, reason: "cancel")))
        #expect(cancelled.auditStatus == -2)
        #expect(handle(.proveOwner(passcode: Self.passcode("audit-code"))) == .status(.success))

        let control = AccessControl(protection: .whenUnlocked, flags: .privateKeyUsage)
        guard case .tokenKey(let key) = handle(.createTokenKey(TokenKeyCreation(accessControl: control))) else {
            Issue.record("no key was made")
            return
        }
        let use = TokenKeyUse(key: key.sealed, operation: .sign, algorithm: "algid:sign:ECDSA:message-X962:SHA256", input: Data("m".utf8))
        guard case .value(.data)? = Optional(handle(.useTokenKey(use))) else {
            Issue.record("the key did not sign")
            return
        }

        var item: QueryDictionary = ["class": "genp", "svce": "audit.example", "acct": "alice"]
        item["v_Data"] = .data(Data("AUDIT-SECRET".utf8))
        #expect(handle(.add(item)) == .value(nil))
        guard case .backup(let backup) = handle(.exportBackup(BackupExport(passcode: Self.passcode("audit-code")))) else {
            Issue.record("no backup was made")
            return
        }
        let records = backup.parts.first ?? SecretBytes(copying: [])
        #expect(handle(.restoreBackup(BackupRestore(records: records, policy: .keep))) != .status(.internal))
        #expect(handle(.changePasscode(old: Self.passcode("audit-code"), new: Self.passcode("audit-code-2"))) == .status(.success))
        #expect(handle(.lock) == .status(.success))
        #expect(handle(.unlock(passcode: Self.passcode("wrong"))).auditStatus == -25293)
        #expect(handle(.unlock(passcode: Self.passcode("audit-code-2"))) == .status(.success))
        #expect(handle(.removePasscode(current: Self.passcode("audit-code-2"))) == .status(.success))

        let journal = try service.engine().auditJournal().records().map { try AuditRecord(decoding: $0.payload, sequence: $0.sequence) }
        #expect(
            journal.map(\.event) == [
                .passcodeChanged, .authentication, .authentication, .authentication, .authentication, .keyUsed, .itemAdded, .backup,
                .restore, .passcodeChanged, .locked, .unlocked, .unlocked, .passcodeChanged,
            ])
        #expect(
            journal.map(\.detail) == [
                "set", "passed", "already proved", "cancelled", "passed", "a key no item holds", nil, "1 items", "0 added, 0 conflicts",
                "changed", nil, nil, nil, "removed",
            ])
        #expect(journal.map(\.operation)[1...5] == ["authenticate", "authenticate", "authenticate", "proveOwner", "sign"])
        #expect(journal.map(\.status) == [0, 0, 0, -2, 0, 0, 0, 0, 0, 0, 0, -25293, 0, 0])
        #expect(journal.allSatisfy { $0.caller == .thisProcess && $0.accessGroups == ["com.example.audit"] })
        #expect(journal[5].itemClass == "keys" && journal[5].items.isEmpty)
        for name in try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("audit").path) {
            let bytes = try Data(contentsOf: url.appendingPathComponent("audit").appendingPathComponent(name))
            for text in ["AUDIT-SECRET", "AUDIT-REASON", "audit-code", "alice"] { #expect(bytes.range(of: Data(text.utf8)) == nil) }
        }
    }
}
