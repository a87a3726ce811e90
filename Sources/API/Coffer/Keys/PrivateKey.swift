import Foundation
import KeyCrypto
import KeychainKeys
import KeychainOperations

/// A private key: EC P-256, P-384 or P-521, RSA or Ed25519, held in this process (a software key), or a P-256
/// or Ed25519 key whose private part never leaves the keychain (Apple's `kSecAttrTokenIDSecureEnclave`).
///
/// Make one with ``Keychain/generateKey(type:sizeInBits:tag:label:accessGroup:accessibility:accessControl:neverLeavesKeychain:)``,
/// find it again with ``Keychain/key(tagged:authenticationContext:)``, and use it through the keychain:
/// ``Keychain/sign(_:with:algorithm:authenticationContext:reason:)``,
/// ``Keychain/decrypt(_:with:algorithm:authenticationContext:reason:)`` and
/// ``Keychain/sharedSecret(with:using:algorithm:requestedSize:sharedInfo:authenticationContext:reason:)``.
///
/// Descriptions and `dump` never show the key's bytes.
public struct PrivateKey: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The key: what it is and does is the key layer's (``KeyHandle``).
    let handle: KeyHandle
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

    /// A software key, or a key the keychain keeps (whose access control is the one sealed with it).
    init(_ handle: KeyHandle) {
        self.handle = handle
        publicKey = PublicKey(handle.publicKey)
        accessControl = handle.kept?.handle.accessControl
    }

    /// The key under the stored attributes `tag`, `label`, `accessGroup`, `accessibility` and `accessControl`
    /// (ignored for a key that never leaves the keychain: its own is sealed with it).
    init(
        _ handle: KeyHandle, tag: Data, label: String?, accessGroup: String?, accessibility: Accessibility?,
        accessControl: AccessControl?
    ) {
        self.init(handle)
        applicationTag = tag
        self.label = label
        self.accessGroup = accessGroup
        self.accessibility = accessibility
        if !handle.isKept { self.accessControl = accessControl }
    }

    /// A software private key from its external representation (`SecKeyCreateWithData` with
    /// `kSecAttrKeyClassPrivate`): X9.63 `04‖X‖Y‖K` for `KeyType.ellipticCurve`, PKCS#1 `RSAPrivateKey` DER
    /// for `KeyType.rsa`. Store it with ``Keychain/add(_:tag:label:accessGroup:accessibility:accessControl:)``.
    ///
    /// Bytes that are no such key throw ``KeychainError`` with `errSecParam` (-50).
    public init(externalRepresentation: Data, type: KeyType) throws(KeychainError) {
        do {
            self.init(KeyHandle(software: try AsymmetricKey(externalRepresentation: externalRepresentation, type: type, keyClass: .privateKey)))
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
    public var neverLeavesKeychain: Bool { handle.isKept }

    /// The private key's bytes (`SecKeyCopyExternalRepresentation`): X9.63 `04‖X‖Y‖K` for EC, PKCS#1
    /// `RSAPrivateKey` DER for RSA. They are the secret: keep them out of logs.
    ///
    /// A key that never leaves the keychain cannot be exported: ``KeychainError`` with `errSecUnimplemented`
    /// (-4), as Apple's Secure Enclave keys answer.
    public func externalRepresentation() throws(KeychainError) -> Data {
        do {
            return try handle.externalRepresentation()
        } catch {
            throw KeychainError(error, operation: .exportKey)
        }
    }

    /// Whether this key performs `algorithm` for `operation` (`SecKeyIsAlgorithmSupported`): signing,
    /// decrypting and agreeing keys.
    public func isSupported(_ algorithm: KeyAlgorithm, for operation: KeyOperation) -> Bool {
        handle.isSupported(algorithm, for: operation)
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
