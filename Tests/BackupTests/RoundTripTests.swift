import BackupFormat
import Coffer
import CofferTestSupport
import Foundation
import KeychainModel
import Testing

/// Backups written and restored through the Swift API, on both transports.
@Suite("Backup round trips", .timeLimit(.minutes(10)))
struct RoundTripTests {
    static let password = SecretBytes(text: "correct horse battery staple")

    @Test(arguments: Transport.allCases)
    func tenThousandItemsRoundTripOntoAnotherKeychain(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(10_000) + itemsThatStay())
        let file = source.file("keychain.cofferbackup")
        let summary = try await source.keychain.backup(
            to: file, protection: .password(Self.password), kdf: .insecureForTesting)
        #expect(summary.itemCount == 10_000)
        #expect(summary.leftBehind == BackupContents.LeftBehind(thisDeviceOnly: 6, nonExtractableKeys: 2))
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        let bytes = try Data(contentsOf: file)
        #expect(bytes.prefix(4) == Data("CFBK".utf8))
        #expect(bytes.range(of: Data("secret-item-17".utf8)) == nil)

        // Another folder: another device key, other class keys, other blind-index key.
        let destination = try BackupKeychain(transport)
        let report = try await destination.keychain.restore(from: file, protection: .password(Self.password))
        #expect(report.items == RestoreReport(added: 10_000))
        #expect(try destination.portableItems() == source.portableItems())
        #expect(try destination.rowCount() == 10_000)

        // The restored items are found through the keychain's blind indexes, secrets included.
        let found = try destination.keychain.client.blocking.copyMatching(
            ["class": "genp", "svce": "svc-item", "acct": "acct-4000", "r_Data": true])
        #expect(found == .data(Data("secret-item-4000".utf8)))

        // Restoring again finds every item identical.
        let again = try await destination.keychain.restore(from: file, protection: .password(Self.password))
        #expect(again.items == RestoreReport(identical: 10_000))
    }

    @Test(arguments: Transport.allCases)
    func recoveryKeyBackupsRestoreWithTheKeyOnly(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(8))
        let file = source.file("backup")
        let key = RecoveryKey.generate()
        _ = try await source.keychain.backup(to: file, protection: .recoveryKey(key))
        #expect(try Keychain.backupProtection(of: file) == .recoveryKey)
        let destination = try BackupKeychain(transport)
        await #expect(throws: BackupError(.wrongPassword, "wrong recovery key")) {
            try await destination.keychain.restore(from: file, protection: .recoveryKey(RecoveryKey.generate()))
        }
        await #expect(throws: BackupError(.wrongKindOfSecret, "this backup is protected by a recovery key, not a password")) {
            try await destination.keychain.restore(from: file, protection: .password(Self.password))
        }
        #expect(try destination.rowCount() == 0)
        let printed = key.formatted()
        let report = try await destination.keychain.restore(from: file, protection: .recoveryKey(try RecoveryKey.parse(printed)))
        #expect(report.added == 8)
        #expect(try destination.portableItems() == source.portableItems())
    }

    @Test(arguments: Transport.allCases)
    func aWrongPasswordWritesNothing(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(mixedItems(20))
        let file = source.file("backup")
        _ = try await source.keychain.backup(to: file, protection: .password(Self.password), kdf: .insecureForTesting)
        let destination = try BackupKeychain(transport)
        await #expect(throws: BackupError(.wrongPassword, "wrong backup password")) {
            try await destination.keychain.restore(from: file, protection: .password(SecretBytes(text: "wrong")))
        }
        #expect(try destination.rowCount() == 0)
    }

    @Test(arguments: Transport.allCases)
    func thisDeviceOnlyAndNonExtractableItemsStayBehind(transport: Transport) async throws {
        let source = try BackupKeychain(transport)
        try source.seed(itemsThatStay() + mixedItems(4))
        let file = source.file("backup")
        let summary = try await source.keychain.backup(to: file, protection: .password(Self.password), kdf: .insecureForTesting)
        #expect(summary.itemCount == 4)
        #expect(summary.leftBehind == BackupContents.LeftBehind(thisDeviceOnly: 6, nonExtractableKeys: 2))
        let destination = try BackupKeychain(transport)
        _ = try await destination.keychain.restore(from: file, protection: .password(Self.password))
        #expect(try destination.rowCount() == 4)
        let stays = try? destination.keychain.client.blocking.copyMatching(["class": "genp", "svce": "stays", "m_Limit": "m_LimitAll"])
        #expect(stays == nil)
    }
}
