import Foundation
import KeychainSelection
import KeychainModel
import KeychainOperations
import LocalAuthentication
import Query
import Security

/// The handle of a key the keychain keeps, with the context its uses authenticate with: what both kinds
/// of ``SecureEnclave`` private keys hold.
struct EnclaveKey: Sendable {
    let handle: TokenKey
    let authentication: TokenKeyAuthentication

    /// A new key made by the keychain.
    init(accessControl: SecAccessControl, context: LAContext?) throws {
        let creation = TokenKeyCreation(accessControl: accessControl.accessControl)
        do {
            handle = try SharedKeychainClient.current.sendBlocking(.createTokenKey(creation)).tokenKeyResult()
        } catch {
            throw EnclaveKeyError.error(error)
        }
        authentication = Self.authentication(context)
    }

    /// The key `dataRepresentation` stands for. Bytes that are no key's handle throw
    /// `CryptoKitError.incorrectParameterSize`; a handle from another keychain fails when it is used.
    init(dataRepresentation: Data, context: LAContext?) throws {
        guard let handle = TokenKey(sealed: dataRepresentation) else { throw CryptoKitError.incorrectParameterSize }
        self.handle = handle
        authentication = Self.authentication(context)
    }

    /// Runs `operation` in the keychain.
    func use(_ operation: TokenKeyUse.Operation, algorithm: String, input: Data) throws -> Data {
        let use = TokenKeyUse(key: handle.sealed, operation: operation, algorithm: algorithm, input: input, authentication: authentication)
        do {
            return try SharedKeychainClient.current.sendBlocking(.useTokenKey(use)).tokenKeyUseResult()
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
