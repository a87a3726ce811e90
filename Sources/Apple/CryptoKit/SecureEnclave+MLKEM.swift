import Foundation
import LocalAuthentication
import Security

extension SecureEnclave.MLKEM768 {
    /// An ML-KEM-768 private key the keychain keeps: decapsulation runs there.
    public struct PrivateKey: KEMPrivateKey {
        let key: PostQuantumEnclaveKey

        /// The public key, to encapsulate shared secrets to.
        public let publicKey: MLKEM768.PublicKey

        /// A key made with Apple's default access control and no context.
        public static func generate() throws -> SecureEnclave.MLKEM768.PrivateKey { try PrivateKey() }

        /// Makes a key in the keychain, whose uses `accessControl` governs (by default: after first unlock, on this
        /// device only).
        public init(
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            key = try PostQuantumEnclaveKey(.mlkem768, accessControl: accessControl, context: authenticationContext)
            publicKey = try MLKEM768.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The key a ``dataRepresentation`` stands for.
        public init<D: DataProtocol>(dataRepresentation: D, authenticationContext: LAContext? = nil) throws {
            key = try PostQuantumEnclaveKey(.mlkem768, dataRepresentation: dataRepresentation, context: authenticationContext)
            publicKey = try MLKEM768.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The handle to keep (in a file, a keychain item) to use the key again: useless to any other keychain.
        public var dataRepresentation: Data { key.dataRepresentation }

        /// The shared secret `encapsulated` (1,088 bytes) carries.
        public func decapsulate<D: DataProtocol>(_ encapsulated: D) throws -> SymmetricKey {
            try key.decapsulate(encapsulated, length: 1088)
        }
    }
}

extension SecureEnclave.MLKEM1024 {
    /// An ML-KEM-1024 private key the keychain keeps: decapsulation runs there.
    public struct PrivateKey: KEMPrivateKey {
        let key: PostQuantumEnclaveKey

        /// The public key, to encapsulate shared secrets to.
        public let publicKey: MLKEM1024.PublicKey

        /// A key made with Apple's default access control and no context.
        public static func generate() throws -> SecureEnclave.MLKEM1024.PrivateKey { try PrivateKey() }

        /// Makes a key in the keychain, whose uses `accessControl` governs (by default: after first unlock, on this
        /// device only).
        public init(
            accessControl: SecAccessControl = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, [], nil)!,
            authenticationContext: LAContext? = nil
        ) throws {
            key = try PostQuantumEnclaveKey(.mlkem1024, accessControl: accessControl, context: authenticationContext)
            publicKey = try MLKEM1024.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The key a ``dataRepresentation`` stands for.
        public init<D: DataProtocol>(dataRepresentation: D, authenticationContext: LAContext? = nil) throws {
            key = try PostQuantumEnclaveKey(.mlkem1024, dataRepresentation: dataRepresentation, context: authenticationContext)
            publicKey = try MLKEM1024.PublicKey(rawRepresentation: key.key.publicKey)
        }

        /// The handle to keep (in a file, a keychain item) to use the key again: useless to any other keychain.
        public var dataRepresentation: Data { key.dataRepresentation }

        /// The shared secret `encapsulated` (1,568 bytes) carries.
        public func decapsulate<D: DataProtocol>(_ encapsulated: D) throws -> SymmetricKey {
            try key.decapsulate(encapsulated, length: 1568)
        }
    }
}
