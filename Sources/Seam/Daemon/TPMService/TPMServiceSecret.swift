import Crypto
import Foundation
import KeychainModel
import Keystore
import TrustedPlatformModule

/// The system cofferd's secret for the TPM service (`STATE/tpm-service.key`, 32 random bytes, 0600), from which each
/// user's authorisation value is derived: HMAC-SHA256(secret, "coffer tpm service object v1" ‖ uid).
///
/// Only cofferd reads it, so only cofferd can use a user's TPM objects, and only on behalf of the uid the kernel
/// names for the connection. It is not sealed by the TPM: whoever may read it may also open the TPM, and the
/// objects themselves are of no use on another machine.
struct TPMServiceSecret: Sendable {
    private let key: SymmetricKey

    /// The file's name in the state folder.
    static let fileName = "tpm-service.key"

    /// Reads the secret from `stateDirectory`, or makes and stores one there.
    init(stateDirectory: URL) throws(KeystoreError) {
        let url = stateDirectory.appendingPathComponent(Self.fileName)
        if let stored = try SecureFile.read(url, limit: 64) {
            guard stored.count == 32 else { throw .deviceKeyDamaged(reason: "\(Self.fileName) does not hold 32 bytes") }
            key = stored.withUnsafeBytes { SymmetricKey(data: $0) }
            return
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        defer { bytes.zeroize() }
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        var failure: KeystoreError?
        bytes.withUnsafeBytes { buffer in
            do throws(KeystoreError) { try SecureFile.writeAtomically(buffer, to: url) } catch { failure = error }
        }
        if let failure { throw failure }
        key = SymmetricKey(data: bytes)
    }

    /// The authorisation value of the objects the service makes for `uid`.
    func authorization(for uid: UInt32) -> ObjectAuthorization {
        var message = Data("coffer tpm service object v1".utf8)
        withUnsafeBytes(of: uid.bigEndian) { message.append(contentsOf: $0) }
        return ObjectAuthorization(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }
}
