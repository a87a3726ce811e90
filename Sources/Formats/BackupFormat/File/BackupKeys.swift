import Crypto
import Foundation
import KeychainModel

/// The two keys of one backup, derived from its secret and salt: the content key (AES-256-GCM of the chunks)
/// and the check key (the header's key check).
struct BackupKeys {
    let content: SymmetricKey
    let check: SymmetricKey

    /// The keys for `header`, from `secret`; throws when the secret's kind is not the header's. A recipient's secret
    /// is the one the sealer encapsulated (``master``), or the one the recipient decapsulated.
    init(_ secret: BackupSecret, header: BackupHeader, master encapsulated: SymmetricKey? = nil) throws(BackupFormatError) {
        guard secret.kind == header.secretKind else { throw .secretKindMismatch(expected: header.secretKind) }
        let master: SymmetricKey
        switch secret {
        case .password(let password): master = try header.kdf.stretch(password, salt: header.salt)
        case .recoveryKey(let recovery): master = recovery.key.withUnsafeBytes { SymmetricKey(data: $0) }
        case .decapsulated(let shared): master = shared.withUnsafeBytes { SymmetricKey(data: $0) }
        case .recipient:
            guard let encapsulated else { throw .damaged("a recipient's secret is made when the backup is sealed") }
            master = encapsulated
        }
        content = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master, salt: header.salt, info: Data("coffer backup v1 content".utf8), outputByteCount: 32)
        check = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master, salt: header.salt, info: Data("coffer backup v1 key check".utf8), outputByteCount: 32)
    }
}
