import Foundation
import KeyCrypto
import KeychainKeys
import KeychainModel
import KeychainOperations
import KeychainSelection
import LocalAuthentication
import Security

/// A P-256 key the keychain keeps, with the context its uses authenticate with: what both kinds of
/// ``SecureEnclave`` private keys hold. Its operations are the key layer's (``KeyHandle``).
struct EnclaveKey: Sendable {
    let key: KeptKey

    /// A new key made by the keychain.
    init(accessControl: SecAccessControl, context: LAContext?) throws {
        do {
            key = try KeyHandle.generateKept(
                .p256, accessControl: accessControl.accessControl, authentication: Self.authentication(context),
                through: SharedKeychainClient.current)
        } catch {
            throw EnclaveKeyError.error(error)
        }
    }

    /// The key `dataRepresentation` stands for. Bytes that are no P-256 key's handle throw
    /// `CryptoKitError.incorrectParameterSize`; a handle from another keychain, or altered,
    /// `CryptoKitError.authenticationFailure` (``EnclaveKeySealCheck``).
    init(dataRepresentation: Data, context: LAContext?) throws {
        guard let key = KeptKey(sealed: dataRepresentation, authentication: Self.authentication(context)), key.kind == .p256 else {
            throw CryptoKitError.incorrectParameterSize
        }
        try EnclaveKeySealCheck.check(key.handle)
        self.key = key
    }

    /// The handle to keep to use the key again.
    var dataRepresentation: Data { key.handle.sealed }

    /// The public key, X9.63 (`04‖X‖Y`), checked when the handle was read.
    var x963PublicKey: Data { key.handle.publicKey }

    /// Runs `operation` in the keychain.
    func perform(_ operation: PrivateKeyOperation, algorithm: KeyAlgorithm) throws -> Data {
        do {
            return try KeyHandle(kept: key).perform(operation, algorithm: algorithm, through: SharedKeychainClient.current)
        } catch {
            throw EnclaveKeyError.error(error)
        }
    }

    private static func authentication(_ context: LAContext?) -> TokenKeyAuthentication {
        guard let reference = context?.authenticationContextReference else { return TokenKeyAuthentication() }
        return TokenKeyAuthentication(context: reference.context, interactive: !reference.interactionNotAllowed)
    }
}

/// The errors the ``SecureEnclave`` keys throw for a keychain failure: an `NSError` in
/// `NSOSStatusErrorDomain` with Apple's status (-128 when the person cancelled, -25293 when authentication
/// failed, -25308 when it was needed and not allowed) and the keychain's reason.
enum EnclaveKeyError {
    static func error(_ failure: KeychainFailure) -> NSError {
        NSError(
            domain: "NSOSStatusErrorDomain", code: Int(failure.status.code),
            userInfo: [NSLocalizedDescriptionKey: failure.reason ?? failure.status.explanation])
    }
}
