import BackupFormat
import Coffer
import CofferTestSupport
import Crypto
import Foundation
import KeychainModel
import Testing
import TestProcesses

/// Backups made for another keychain (`coffer backup --to`): sealed under an X-Wing secret encapsulated to the
/// recipient keychain's key, which that keychain keeps and uses to open them, with no password; refused by any other
/// keychain, and by the recipient when the file or its recipient block was changed.
@Suite("Backups for a recipient keychain", .timeLimit(.minutes(10)))
struct RecipientBackupTests {
    @Test func theFormatSealsToAnXWingKeyAndOnlyThatKeyOpensIt() throws {
        let recipientKey = try XWingMLKEM768X25519.PrivateKey.generate()
        let recipient = BackupRecipient(publicKey: recipientKey.publicKey)
        let plaintext = SecretBytes(text: "the keychain's records")
        let file = try BackupFile.seal(plaintext, with: .recipient(recipient))
        let header = try BackupFile.header(of: file)
        #expect(header.secretKind == .recipient)
        #expect(header.recipientBlock?.keyID == recipient.keyID)
        #expect(header.encodedLength == 96 + 2 + 16 + 1120)
        let block = try #require(header.recipientBlock)
        let opened = try BackupFile.open(file, with: .decapsulated(Self.secret(recipientKey.decapsulate(block.encapsulated))))
        #expect(opened == plaintext)

        // Another key decapsulates another secret (X-Wing's implicit rejection): the key check refuses it.
        let other = try XWingMLKEM768X25519.PrivateKey.generate()
        #expect(throws: BackupFormatError.wrongSecret(.recipient)) {
            try BackupFile.open(file, with: .decapsulated(Self.secret(other.decapsulate(block.encapsulated))))
        }
        #expect(throws: BackupFormatError.secretKindMismatch(expected: .recipient)) {
            try BackupFile.open(file, with: .password(SecretBytes(text: "a password")))
        }
        // A changed ciphertext in the block, or a changed identifier, opens nothing.
        for offset in [96 + 2 + 3, 96 + 2 + 16 + 500] {
            var altered = file
            altered[offset] ^= 0x01
            let alteredBlock = try #require(try BackupFile.header(of: altered).recipientBlock)
            let secret = Self.secret(try recipientKey.decapsulate(alteredBlock.encapsulated))
            #expect(throws: BackupFormatError.self) { try BackupFile.open(altered, with: .decapsulated(secret)) }
        }
        // Cut inside the block: damaged, not misread.
        #expect(throws: BackupFormatError.self) { try BackupFile.header(of: file.prefix(96 + 100)) }
    }

    @Test func aRecipientsTextFormRoundTripsAndADamagedOneIsRefused() throws {
        let recipient = BackupRecipient(publicKey: try XWingMLKEM768X25519.PrivateKey.generate().publicKey)
        let text = recipient.text
        #expect(text.hasPrefix("coffer-recipient-1:"))
        #expect(BackupRecipient(text: text + "\n") == recipient)
        #expect(BackupRecipient(text: String(text.dropLast(4))) == nil)
        #expect(BackupRecipient(text: "coffer-recipient-1:AAAA") == nil)
        #expect(BackupRecipient(text: text.replacingOccurrences(of: "coffer-recipient-1:", with: "")) == nil)
    }

    @Test(arguments: Transport.allCases)
    func aBackupMadeForAKeychainRestoresThereWithoutAPassword(transport: Transport) async throws {
        let destination = try BackupKeychain(transport)
        let recipient = try await destination.keychain.backupRecipient()
        #expect(try await destination.keychain.backupRecipient() == recipient, "made once, then found")

        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(20))
        let file = source.file("for-destination.cofferbackup")
        let summary = try await source.keychain.backup(to: file, protection: .recipient(recipient))
        #expect(summary.itemCount == 20)
        #expect(try Keychain.backupProtection(of: file) == .recipient)

        let secret = try await destination.keychain.recipientSecret(forBackupAt: file)
        let report = try await destination.keychain.restore(from: file, protection: secret)
        #expect(report.items == RestoreReport(added: 20))
        #expect(try destination.portableItems().count == 20)

        // The source keychain, or a third, has no key for it.
        let other = try BackupKeychain(transport)
        _ = try await other.keychain.backupRecipient()
        for keychain in [source.keychain, other.keychain] {
            do {
                _ = try await keychain.recipientSecret(forBackupAt: file)
                Issue.record("another keychain opened the backup")
            } catch {
                #expect(error.kind == .wrongPassword)
                #expect(error.message.contains("made for another keychain"))
            }
        }
        // The recipient key stays on its keychain: it is in no backup the recipient makes.
        let own = destination.file("own.cofferbackup")
        _ = try await destination.keychain.backup(to: own, protection: .recoveryKey(RecoveryKey.generate()))
        #expect(try destination.portableItems().allSatisfy { $0.attributes.range(of: Data("coffer.backup-recipient".utf8)) == nil })
    }

    @Test func theCommandLineMakesAndRestoresABackupForAnotherKeychain() throws {
        let source = try BackupKeychain(.embedded)
        try source.seed(mixedItems(3))
        let destination = try BackupKeychain(.embedded)
        let printed = try Self.coffer(["backup-recipient"], in: destination)
        #expect(printed.status == 0, "\(printed.errorText)")
        let text = printed.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(BackupRecipient(text: text) != nil)
        #expect(try Self.coffer(["backup-recipient"], in: destination).outputText == printed.outputText)

        // --to takes the text, or a file holding it; no password is asked for.
        let file = source.file("to-destination.backup")
        let made = try Self.coffer(["backup", "-o", file.path, "--to", text], in: source)
        #expect(made.status == 0, "\(made.errorText)")
        let recipientFile = source.file("destination.recipient")
        try Data(printed.outputText.utf8).write(to: recipientFile)
        let second = source.file("second.backup")
        #expect(try Self.coffer(["backup", "-o", second.path, "--to", recipientFile.path], in: source).status == 0)

        let restored = try Self.coffer(["restore", file.path], in: destination)
        #expect(restored.status == 0, "\(restored.errorText)")
        #expect(restored.outputText.hasPrefix("restored 3 items"))
        let refused = try Self.coffer(["restore", second.path], in: source)
        #expect(refused.status == 2)
        #expect(refused.errorText.contains("made for another keychain"))

        let damaged = try Self.coffer(["backup", "-o", source.file("x").path, "--to", String(text.dropLast(10))], in: source)
        #expect(damaged.status != 0)
        #expect(damaged.errorText.contains("the recipient key is damaged"))
        let both = try Self.coffer(["backup", "-o", source.file("y").path, "--to", text, "--recovery-key"], in: source)
        #expect(both.status != 0)
        #expect(both.errorText.contains("--to makes the backup for another keychain's key"))
    }

    private static func secret(_ key: SymmetricKey) -> SecretBytes { key.withUnsafeBytes { SecretBytes(copying: $0) } }

    private static func coffer(_ arguments: [String], in keychain: BackupKeychain) throws -> ChildProcess.Outcome {
        try ChildProcess.run([KilledRestoreTests.coffer] + arguments, environment: KilledRestoreTests.environment(keychain))
    }
}
