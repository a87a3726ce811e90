import Coffer
import CofferTestSupport
import Foundation
import KeychainModel
import Query
import Testing

/// Items of the backup whose primary key is taken: keep, replace, both.
@Suite("Restore conflicts", .timeLimit(.minutes(10)))
struct ConflictTests {
    static let password = SecretBytes(text: "pw")

    /// A backup of 8 items, and a destination where a generic password and a certificate of the backup already
    /// exist with other contents.
    private func prepared(_ transport: Transport) async throws -> (BackupKeychain, URL, BackupKeychain) {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(8, prefix: "p"))
        let file = source.file("backup")
        _ = try await source.keychain.backup(to: file, protection: .password(Self.password), kdf: .insecureForTesting)
        let destination = try BackupKeychain(transport)
        try destination.seed([
            ["class": "genp", "svce": "svc-p", "acct": "acct-0", "v_Data": .data(Data("mine".utf8))],
            [
                "class": "cert", "ctyp": 1, "issr": .data(Data("issuer-p".utf8)), "slnr": .data(Data("serial-2".utf8)),
                "v_Data": .data(Data("my certificate".utf8)), "pdmn": "dk",
            ],
        ])
        return (destination, file, source)
    }

    private func secret(_ keychain: BackupKeychain, account: String) throws -> KeychainValue? {
        try keychain.keychain.client.blocking.copyMatching(["class": "genp", "svce": "svc-p", "acct": .string(account), "r_Data": true])
    }

    static let passwordSummary = "service \"svc-p\", account \"acct-0\", label \"label\""

    @Test(arguments: Transport.allCases)
    func keepLeavesTheKeychainsItems(transport: Transport) async throws {
        let (destination, file, source) = try await prepared(transport)
        defer { withExtendedLifetime(source) {} }
        let report = try await destination.keychain.restore(from: file, protection: .password(Self.password), policy: .keep)
        #expect(
            report.items
                == RestoreReport(
                    added: 6,
                    conflicts: [
                        RestoreConflict(itemClass: .genericPassword, summary: Self.passwordSummary, outcome: .keptExisting),
                        RestoreConflict(itemClass: .certificate, summary: "an item without a label", outcome: .keptExisting),
                    ]))
        #expect(try secret(destination, account: "acct-0") == .data(Data("mine".utf8)))
        #expect(try destination.rowCount() == 8)
    }

    @Test(arguments: Transport.allCases)
    func replacePutsTheBackupsItems(transport: Transport) async throws {
        let (destination, file, source) = try await prepared(transport)
        defer { withExtendedLifetime(source) {} }
        let report = try await destination.keychain.restore(from: file, protection: .password(Self.password), policy: .replace)
        #expect(report.added == 6)
        #expect(report.conflicts.map(\.outcome) == [.replaced, .replaced])
        #expect(try secret(destination, account: "acct-0") == .data(Data("secret-p-0".utf8)))
        #expect(try destination.rowCount() == 8)
        let certificate = try destination.keychain.client.blocking.copyMatching(
            ["class": "cert", "slnr": .data(Data("serial-2".utf8)), "r_Data": true])
        #expect(certificate == .data(Data("certificate-p-2".utf8)))
    }

    @Test(arguments: Transport.allCases)
    func bothKeepsTwoPasswordsButOneCertificate(transport: Transport) async throws {
        let (destination, file, source) = try await prepared(transport)
        defer { withExtendedLifetime(source) {} }
        let report = try await destination.keychain.restore(from: file, protection: .password(Self.password), policy: .both)
        #expect(report.added == 6)
        #expect(report.conflicts.map(\.outcome) == [.keptBoth, .notRestorable])
        #expect(try secret(destination, account: "acct-0") == .data(Data("mine".utf8)))
        #expect(try secret(destination, account: "acct-0 (restored)") == .data(Data("secret-p-0".utf8)))
        #expect(try destination.rowCount() == 9)
        // A second restore: the copy is taken too, so the next one gets a number.
        let again = try await destination.keychain.restore(from: file, protection: .password(Self.password), policy: .both)
        #expect(again.identical == 6)
        #expect(try secret(destination, account: "acct-0 (restored 2)") == .data(Data("secret-p-0".utf8)))
    }
}
