import Crypto
import Foundation
import KeychainModel

/// The two keys one file key gives, bound to the file's identifier: one encrypts the chunks (AES-256-GCM),
/// one authenticates the header (HMAC-SHA256). Held only while the file is in use.
public struct FileContentKeys: Sendable {
    /// Encrypts and authenticates the chunks.
    public let content: SymmetricKey
    /// Authenticates the header.
    public let header: SymmetricKey

    /// The keys of `fileKey` for the file identified by `fileID`.
    public init(fileKey: SecretBytes, fileID: Data) {
        let key = fileKey.withUnsafeBytes { SymmetricKey(data: $0) }
        content = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: fileID, info: Data("coffer protected file content v1".utf8), outputByteCount: 32)
        header = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, salt: fileID, info: Data("coffer protected file header v1".utf8), outputByteCount: 32)
    }
}
