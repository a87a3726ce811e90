import BackupFormat
import Crypto
import CofferRuntime
import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations

/// Backups made for another keychain: its recipient key (X-Wing, ML-KEM-768 with X25519) is kept by that keychain,
/// and a backup made for it is sealed under a secret encapsulated to that key. No password travels with the file,
/// and a file recorded now stays closed to a later quantum computer.
extension Keychain {
    /// Where the recipient key's handle is kept: a generic password of this service, `…ThisDeviceOnly`, so it never
    /// leaves this keychain in a backup or a sync.
    static let recipientService = "coffer.backup-recipient"

    /// This keychain's recipient key, made (inside the keychain, after first unlock, this device only) the first time
    /// it is asked for. Give its ``BackupRecipient/text`` to whoever makes a backup for this keychain.
    public func backupRecipient() async throws(BackupError) -> BackupRecipient {
        if let key = try await recipientKey() { return try Self.recipient(of: key) }
        let control = AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: [])
        let client = self.client
        let made = await OwnThread.run(named: "coffer-keygen") { () -> Result<KeptPostQuantumKey, KeychainFailure> in
            Result { () throws(KeychainFailure) in try KeptPostQuantumKey.generate(.xwing, accessControl: control, through: client) }
        }
        let key: KeptPostQuantumKey
        switch made {
        case .success(let made): key = made
        case .failure(let error): throw BackupError(error, doing: "making this keychain's recipient key")
        }
        let recipient = try Self.recipient(of: key)
        let item = GenericPassword(
            service: Self.recipientService, account: recipient.keyID.hexString, value: key.handle.sealed,
            label: "Backup recipient key (X-Wing)", accessibility: .afterFirstUnlockThisDeviceOnly)
        do {
            try await add(item)
        } catch {
            throw BackupError(.keychain, "cannot keep the recipient key: \(error)", status: error.status)
        }
        return recipient
    }

    /// The secret that opens the backup at `url`, made for this keychain: its recipient key decapsulates the file's
    /// recipient block inside the keychain. A backup made for another keychain is ``BackupError/Kind/wrongPassword``,
    /// saying so.
    public func recipientSecret(forBackupAt url: URL) async throws(BackupError) -> BackupSecret {
        let header = try Self.backupHeader(of: url)
        guard let block = header.recipientBlock else {
            throw BackupError(.wrongKindOfSecret, BackupFormatError.secretKindMismatch(expected: header.secretKind).description)
        }
        guard let key = try await recipientKey(id: block.keyID) else {
            throw BackupError(
                .wrongPassword,
                "this backup was made for another keychain (recipient key \(block.keyID.hexString.prefix(16))…), not this one")
        }
        let client = self.client
        let opened = await OwnThread.run(named: "coffer-backup") { () -> Result<Data, KeychainFailure> in
            Result { () throws(KeychainFailure) in try key.decapsulate(block.encapsulated, through: client) }
        }
        switch opened {
        case .success(var secret):
            defer { secret.resetBytes(in: 0..<secret.count) }
            return .decapsulated(SecretBytes(copying: secret))
        case .failure(let error):
            throw BackupError(error, doing: "opening the backup with this keychain's recipient key")
        }
    }

    /// The recipient key kept in this keychain (the one with identifier `id`, or any); nil when there is none.
    private func recipientKey(id: Data? = nil) async throws(BackupError) -> KeptPostQuantumKey? {
        let found: [GenericPassword]
        do {
            found = try await items(matching: GenericPasswordQuery(service: Self.recipientService, account: id?.hexString))
        } catch {
            throw BackupError(.keychain, "cannot read the recipient key: \(error)", status: error.status)
        }
        return found.lazy.compactMap { KeptPostQuantumKey(sealed: $0.value, kind: .xwing) }.first
    }

    private static func recipient(of key: KeptPostQuantumKey) throws(BackupError) -> BackupRecipient {
        guard let publicKey = try? XWingMLKEM768X25519.PublicKey(rawRepresentation: key.publicKey) else {
            throw BackupError(.keychain, "the keychain's recipient key has no X-Wing public key")
        }
        return BackupRecipient(publicKey: publicKey)
    }

    /// The header of the backup at `url`, with its recipient block.
    static func backupHeader(of url: URL) throws(BackupError) -> BackupHeader {
        try mappingErrors(otherwise: "cannot read \(url.path)") {
            let reader = try BackupFileReader(url.path)
            return try BackupFile.header(of: reader.read(at: 0, count: min(reader.length, BackupHeader.maximumLength)))
        }
    }
}

extension Data {
    /// Lower-case hexadecimal.
    fileprivate var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
