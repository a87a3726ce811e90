import Foundation
import LocalAuthentication
import Security

extension SecureEnclave.MLDSA65 {
    /// An ML-DSA-65 private key the keychain keeps: signing runs there.
    public struct PrivateKey: Sendable {
        let key: PostQuantumEnclaveKey

        /// The public key, which verifies the signatures.
        public let publicKey: MLDSA65.PublicKey

        /// Makes a key in the keychain, whose uses `accessControl` governs (by default: after first unlock, on this
        /// device only).
        public init(
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            key = try PostQuantumEnclaveKey(.mldsa65, accessControl: accessControl, context: authenticationContext)
            publicKey = try MLDSA65.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The key a ``dataRepresentation`` stands for.
        public init<D: DataProtocol>(dataRepresentation: D, authenticationContext: LAContext? = nil) throws {
            key = try PostQuantumEnclaveKey(.mldsa65, dataRepresentation: dataRepresentation, context: authenticationContext)
            publicKey = try MLDSA65.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The handle to keep (in a file, a keychain item) to use the key again: useless to any other keychain.
        public var dataRepresentation: Data { key.dataRepresentation }

        /// An ML-DSA-65 signature of `data`.
        public func signature<D: DataProtocol>(for data: D) throws -> Data { try key.signature(for: data, context: Data()) }

        /// An ML-DSA-65 signature of `data` with the context string `context` (at most 255 bytes).
        public func signature<D: DataProtocol, C: DataProtocol>(for data: D, context: C) throws -> Data {
            try key.signature(for: data, context: context)
        }
    }
}

extension SecureEnclave.MLDSA87 {
    /// An ML-DSA-87 private key the keychain keeps: signing runs there.
    public struct PrivateKey: Sendable {
        let key: PostQuantumEnclaveKey

        /// The public key, which verifies the signatures.
        public let publicKey: MLDSA87.PublicKey

        /// Makes a key in the keychain, whose uses `accessControl` governs (by default: after first unlock, on this
        /// device only).
        public init(
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            key = try PostQuantumEnclaveKey(.mldsa87, accessControl: accessControl, context: authenticationContext)
            publicKey = try MLDSA87.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The key a ``dataRepresentation`` stands for.
        public init<D: DataProtocol>(dataRepresentation: D, authenticationContext: LAContext? = nil) throws {
            key = try PostQuantumEnclaveKey(.mldsa87, dataRepresentation: dataRepresentation, context: authenticationContext)
            publicKey = try MLDSA87.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The handle to keep (in a file, a keychain item) to use the key again: useless to any other keychain.
        public var dataRepresentation: Data { key.dataRepresentation }

        /// An ML-DSA-87 signature of `data`.
        public func signature<D: DataProtocol>(for data: D) throws -> Data { try key.signature(for: data, context: Data()) }

        /// An ML-DSA-87 signature of `data` with the context string `context` (at most 255 bytes).
        public func signature<D: DataProtocol, C: DataProtocol>(for data: D, context: C) throws -> Data {
            try key.signature(for: data, context: context)
        }
    }
}
