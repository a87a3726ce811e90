import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations

/// A key as every front end holds it: a software key, whole in this process, or a key the keychain keeps,
/// whose private part never leaves it (Apple's `kSecAttrTokenIDSecureEnclave`).
///
/// What a key is and does is written here once: its facts (type, class, size), its operations (sign,
/// verify, encrypt, decrypt, agree; a kept key's private operations run in the keychain), its attributes
/// as `SecKeyCopyAttributes` lists them, and reading one from a keychain result. `SecKey`, Coffer's
/// `PrivateKey` and `PublicKey`, and CryptoKit's `SecureEnclave` keys each wrap one.
public struct KeyHandle: Sendable, Hashable {
    /// Where the key's private part lives.
    public enum Storage: Sendable, Hashable {
        /// A software key: the whole key is here.
        case software(AsymmetricKey)
        /// A key whose private part the keychain keeps.
        case kept(KeptKey)
    }

    /// The key, or the keychain's handle of it.
    public let storage: Storage

    /// A software key, public or private.
    public init(software key: AsymmetricKey) {
        storage = .software(key)
    }

    /// A key the keychain keeps.
    public init(kept key: KeptKey) {
        storage = .kept(key)
    }

    /// The public half (the key itself when it is a public software key).
    public var publicKey: AsymmetricKey {
        switch storage {
        case .software(let key): key.publicKey
        case .kept(let key): key.publicKey
        }
    }

    /// The key's public half as a key of its own (`SecKeyCopyPublicKey`).
    public var publicHandle: KeyHandle { KeyHandle(software: publicKey) }

    /// The key the keychain keeps, or nil for a software key.
    public var kept: KeptKey? {
        if case .kept(let key) = storage { return key }
        return nil
    }

    /// Whether the private part never leaves the keychain.
    public var isKept: Bool { kept != nil }

    /// RSA, elliptic curve or Ed25519.
    public var type: KeyType { publicKey.type }

    /// Public or private (a kept key is always its private key).
    public var keyClass: KeyClass {
        switch storage {
        case .software(let key): key.keyClass
        case .kept: .privateKey
        }
    }

    /// The key size in bits.
    public var sizeInBits: Int { publicKey.sizeInBits }

    /// The block size in bytes, as `SecKeyGetBlockSize` answers.
    public var blockSize: Int { publicKey.blockSize }

    /// `kSecAttrApplicationLabel`: the SHA-1 of the public key's bytes, the same for both halves of a pair.
    public var applicationLabel: Data { publicKey.applicationLabel }

    /// Software keys are equal by value; kept keys by their seal, which names one key of one keychain.
    public static func == (lhs: KeyHandle, rhs: KeyHandle) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.software(let left), .software(let right)): left == right
        case (.kept(let left), .kept(let right)): left == right
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .software(let key): hasher.combine(key)
        case .kept(let key): hasher.combine(key)
        }
    }
}

extension KeyHandle {
    /// The same key, a kept key's uses authenticating with `authentication` (a software key needs none).
    public func authenticating(with authentication: TokenKeyAuthentication) -> KeyHandle {
        guard case .kept(let key) = storage else { return self }
        return KeyHandle(kept: key.authenticating(with: authentication))
    }
}
