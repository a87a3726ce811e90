import Foundation
import KeyCrypto
import LocalAuthentication
import Security

extension SecureEnclave.P256.KeyAgreement {
    /// A P-256 key-agreement key whose private part the keychain keeps.
    public struct PrivateKey: Sendable {
        let key: EnclaveKey

        /// Makes a key in the keychain, whose uses `accessControl` governs (by default: after first unlock, on this
        /// device only, no constraint: Apple's default). `compactRepresentable` is accepted for Apple's signature; every P-256
        /// key here is.
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            key = try EnclaveKey(accessControl: accessControl, context: authenticationContext)
        }

        /// The key a ``dataRepresentation`` stands for.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            key = try EnclaveKey(dataRepresentation: dataRepresentation, context: authenticationContext)
        }

        /// The handle to keep (in a file, a keychain item) to use the key again: useless to any other keychain.
        public var dataRepresentation: Data { key.dataRepresentation }

        /// The public key.
        public var publicKey: P256.KeyAgreement.PublicKey {
            // The handle's public key was checked when the handle was read.
            try! P256.KeyAgreement.PublicKey(x963Representation: key.x963PublicKey)
        }

        /// The ECDH shared secret with `publicKeyShare`, computed in the keychain.
        public func sharedSecretFromKeyAgreement(with publicKeyShare: P256.KeyAgreement.PublicKey) throws -> SharedSecret {
            let peer = try AsymmetricKey(externalRepresentation: publicKeyShare.x963Representation, type: .ellipticCurve, keyClass: .publicKey)
            var secret = try key.perform(.keyExchange(peer: peer, requestedSize: nil, sharedInfo: nil), algorithm: .ecdhKeyExchangeStandard)
            defer { secret.resetBytes(in: 0..<secret.count) }
            return try SharedSecretCarrier.sharedSecret(x: secret)
        }
    }
}

/// A `SharedSecret` holding bytes computed elsewhere. swift-crypto makes one only from a key agreement, so
/// the x-coordinate the keychain computed is given back by one: the point with that x-coordinate (the
/// compressed form `02‖x`, which the curve completes) multiplied by the scalar 1 is that point, and the
/// agreement's secret is its x-coordinate.
enum SharedSecretCarrier {
    static func sharedSecret(x: Data) throws -> SharedSecret {
        var one = Data(count: 32)
        one[31] = 1
        let identity = try P256.KeyAgreement.PrivateKey(rawRepresentation: one)
        let point = try P256.KeyAgreement.PublicKey(compressedRepresentation: Data([0x02]) + x)
        return try identity.sharedSecretFromKeyAgreement(with: point)
    }
}
