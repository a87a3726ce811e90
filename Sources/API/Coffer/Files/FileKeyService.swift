import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations

/// The keychain's wrap service for protected files, through a client's blocking calls, with its refusals as
/// ``ProtectedFileError``s.
struct FileKeyService: Sendable {
    let client: any KeychainClient

    /// A fresh file key of `protection`, wrapped for the header.
    func makeKey(_ protection: FileProtectionClass, path: String) throws(ProtectedFileError) -> FileKey {
        do {
            return try client.sendBlocking(.makeFileKey(protection)).fileKeyResult()
        } catch {
            throw Self.failure(error, protection: protection, path: path, writing: true)
        }
    }

    /// The key of a file whose header holds `wrapped`.
    func unwrap(_ wrapped: WrappedFileKey, path: String, writing: Bool) throws(ProtectedFileError) -> FileKey {
        do {
            return try client.sendBlocking(.unwrapFileKey(wrapped)).fileKeyResult()
        } catch {
            throw Self.failure(error, protection: wrapped.protection, path: path, writing: writing)
        }
    }

    /// Whether the keychain is unlocked now (false when it cannot be asked).
    func isUnlocked() -> Bool {
        (try? client.sendBlocking(.lockStatus).lockStatusResult().lockState) == .unlocked
    }

    /// The error for a keystore refusal, with Apple's meaning.
    static func failure(_ error: KeystoreError, protection: FileProtectionClass, path: String, writing: Bool) -> ProtectedFileError {
        switch error {
        case .classUnavailable:
            let when =
                protection == .completeUntilFirstUserAuthentication
                ? "until the keychain is unlocked for the first time" : "while the keychain is locked"
            return ProtectedFileError(
                writing ? .fileWriteNoPermission : .fileReadNoPermission, path: path,
                reason: "the file is protected with \(protection.appleName), whose class key is not available \(when)",
                keychainStatus: .interactionNotAllowed)
        case .wrappedKeyCorrupt:
            return ProtectedFileError(
                .fileReadCorruptFile, path: path,
                reason: "its key does not unwrap in this keychain (a file of another keychain, or its header was changed)",
                keychainStatus: .decode)
        default:
            return ProtectedFileError(
                writing ? .fileWriteUnknown : .fileReadUnknown, path: path, reason: error.description, keychainStatus: error.status)
        }
    }
}
