import Foundation
import KeyCrypto
import KeychainOperations

/// A private key: EC P-256, P-384 or P-521, or RSA, held in this process (a software key), or a P-256 key
/// whose private part never leaves the keychain (Apple's `kSecAttrTokenIDSecureEnclave`).
///
/// Make one with ``Keychain/generateKey(type:sizeInBits:tag:label:accessGroup:accessibility:accessControl:neverLeavesKeychain:)``,
/// find it again with ``Keychain/key(tagged:authenticationContext:)``, and use it through the keychain:
/// ``Keychain/sign(_:with:algorithm:authenticationContext:reason:)``,
/// ``Keychain/decrypt(_:with:algorithm:authenticationContext:reason:)`` and
/// ``Keychain/sharedSecret(with:using:algorithm:requestedSize:sharedInfo:authenticationContext:reason:)``.
///
/// Descriptions and `dump` never show the key's bytes.
public struct PrivateKey: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Where the key's private part lives.
    enum Material: Sendable, Hashable {
        /// A software key: the whole key is here.
        case software(AsymmetricKey)
        /// A key the keychain keeps: its handle (the sealed key, its public key and its access control).
        case token(TokenKey)
    }

    /// The key itself, or the keychain's handle of it.
    let material: Material
    /// The public half of the pair (`SecKeyCopyPublicKey`).
    public let publicKey: PublicKey
    /// `kSecAttrApplicationTag`: the tag the key is stored and found under; nil for a key not stored.
    public internal(set) var applicationTag: Data?
    /// `kSecAttrLabel`: a name for people.
    public internal(set) var label: String?
    /// `kSecAttrAccessGroup`: the access group the key is stored in.
    public internal(set) var accessGroup: String?
    /// `kSecAttrAccessible`: when the key item can be read. A key that never leaves the keychain is stored
    /// always readable; its ``accessControl`` says when it can be used.
    public internal(set) var accessibility: Accessibility?
    /// The key item's persistent reference, once stored.
    public internal(set) var persistentReference: PersistentReference?
    /// What reading a software key's item needs (`kSecAttrAccessControl`), or what using a key that never
    /// leaves the keychain needs (`privateKeyUsage` with its constraints).
    public internal(set) var accessControl: AccessControl?

    /// A software key.
    init(software key: AsymmetricKey) {
        material = .software(key)
        publicKey = PublicKey(key)
    }

    /// A key the keychain keeps, with its public key.
    init(token handle: TokenKey, publicKey: PublicKey) {
        material = .token(handle)
        self.publicKey = publicKey
        accessControl = handle.accessControl
    }

    /// A software private key from its external representation (`SecKeyCreateWithData` with
    /// `kSecAttrKeyClassPrivate`): X9.63 `04‖X‖Y‖K` for `KeyType.ellipticCurve`, PKCS#1 `RSAPrivateKey` DER
    /// for `KeyType.rsa`. Store it with ``Keychain/add(_:tag:label:accessGroup:accessibility:accessControl:)``.
    ///
    /// Bytes that are no such key throw ``KeychainError`` with `errSecParam` (-50).
    public init(externalRepresentation: Data, type: KeyType) throws(KeychainError) {
        do {
            self.init(software: try AsymmetricKey(externalRepresentation: externalRepresentation, type: type, keyClass: .privateKey))
        } catch {
            throw KeychainError(error, operation: .importKey)
        }
    }

    /// RSA or elliptic curve (`kSecAttrKeyType`).
    public var type: KeyType { publicKey.type }
    /// The key size (`kSecAttrKeySizeInBits`).
    public var sizeInBits: Int { publicKey.sizeInBits }
    /// `kSecAttrApplicationLabel`: the SHA-1 of the public key's bytes.
    public var applicationLabel: Data { publicKey.applicationLabel }

    /// Whether the private part never leaves the keychain (`kSecAttrTokenID` is `kSecAttrTokenIDSecureEnclave`).
    public var neverLeavesKeychain: Bool {
        if case .token = material { return true }
        return false
    }

    /// The private key's bytes (`SecKeyCopyExternalRepresentation`): X9.63 `04‖X‖Y‖K` for EC, PKCS#1
    /// `RSAPrivateKey` DER for RSA. They are the secret: keep them out of logs.
    ///
    /// A key that never leaves the keychain cannot be exported: ``KeychainError`` with `errSecUnimplemented`
    /// (-4), as Apple's Secure Enclave keys answer.
    public func externalRepresentation() throws(KeychainError) -> Data {
        switch material {
        case .software(let key): return key.externalRepresentation()
        case .token:
            throw KeychainError(
                status: .unimplemented, operation: .exportKey,
                reason: "Export not implemented for a key that never leaves the keychain.")
        }
    }

    /// Whether this key performs `algorithm` for `operation` (`SecKeyIsAlgorithmSupported`): signing,
    /// decrypting and agreeing keys.
    public func isSupported(_ algorithm: KeyAlgorithm, for operation: KeyOperation) -> Bool {
        switch material {
        case .software(let key): key.isSupported(algorithm, for: operation)
        case .token:
            AsymmetricKey.isSupported(algorithm, for: operation, byPrivateKeyOf: type, sizeInBits: sizeInBits)
        }
    }

    /// The kind and size, and whether it never leaves the keychain, such as "EC P-256 private key that never
    /// leaves the keychain"; never the key's bytes.
    public var description: String {
        let kind =
            switch type {
            case .rsa: "RSA \(sizeInBits)-bit"
            case .ellipticCurve: "EC P-\(sizeInBits)"
            case .ed25519: "Ed25519"
            }
        return "\(kind) private key" + (neverLeavesKeychain ? " that never leaves the keychain" : "")
    }

    /// A mirror of the key's public facts only, so that `dump(_:)` shows no key material.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "description": description, "applicationTag": applicationTag as Any, "label": label as Any,
                "accessGroup": accessGroup as Any,
            ])
    }
}
