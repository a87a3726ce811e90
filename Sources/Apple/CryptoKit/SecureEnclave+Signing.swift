import Foundation
import KeyCrypto
import LocalAuthentication
import Security

extension SecureEnclave.P256.Signing {
    /// A P-256 signing key whose private part the keychain keeps.
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
        public var publicKey: P256.Signing.PublicKey {
            // The handle's public key was checked when the handle was read.
            try! P256.Signing.PublicKey(x963Representation: key.x963PublicKey)
        }

        /// An ECDSA signature over SHA-256 of `data`.
        public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature {
            let der = try key.perform(.sign(Data(data)), algorithm: .ecdsaSignatureMessageX962SHA256)
            return try P256.Signing.ECDSASignature(derRepresentation: der)
        }

        /// An ECDSA signature over `digest`.
        public func signature<D: Digest>(for digest: D) throws -> P256.Signing.ECDSASignature {
            let der = try key.perform(.sign(Data(digest)), algorithm: .ecdsaSignatureDigestX962)
            return try P256.Signing.ECDSASignature(derRepresentation: der)
        }
    }
}
