import Foundation
import KeyCrypto
import KeychainKeys

/// The public half of a key pair: EC P-256, P-384 or P-521, RSA or Ed25519. It verifies signatures and encrypts, and
/// can be given to anyone.
///
/// Get one from a private key (``PrivateKey/publicKey``) or from its bytes (``init(externalRepresentation:type:)``).
/// Two public keys are equal when their type and bytes are.
public struct PublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The key: what it is and does is the key layer's (``KeyHandle``).
    let handle: KeyHandle

    /// The public half of `key` (the key itself when it is public).
    init(_ key: AsymmetricKey) {
        handle = KeyHandle(software: key.publicKey)
    }

    /// The key as the cryptography module holds it.
    var material: AsymmetricKey { handle.publicKey }

    /// The key in `externalRepresentation` (`SecKeyCreateWithData` with `kSecAttrKeyClassPublic`): X9.63
    /// `04‖X‖Y` for `KeyType.ellipticCurve`, PKCS#1 `RSAPublicKey` DER for `KeyType.rsa`.
    ///
    /// Bytes that are no such key throw ``KeychainError`` with `errSecParam` (-50), as Apple's does.
    public init(externalRepresentation: Data, type: KeyType) throws(KeychainError) {
        do {
            handle = KeyHandle(software: try AsymmetricKey(externalRepresentation: externalRepresentation, type: type, keyClass: .publicKey))
        } catch {
            throw KeychainError(error, operation: .importKey)
        }
    }

    /// RSA or elliptic curve (`kSecAttrKeyType`).
    public var type: KeyType { material.type }
    /// The key size (`kSecAttrKeySizeInBits`): 256, 384 or 521 for EC, the modulus's bit length for RSA.
    public var sizeInBits: Int { material.sizeInBits }
    /// The key's bytes as `SecKeyCopyExternalRepresentation` gives them: X9.63 `04‖X‖Y` for EC, PKCS#1
    /// `RSAPublicKey` DER for RSA.
    public var externalRepresentation: Data { material.publicKeyBytes }
    /// `kSecAttrApplicationLabel`: the SHA-1 of ``externalRepresentation``, the same for both halves of the pair.
    public var applicationLabel: Data { material.applicationLabel }

    /// Whether this key performs `algorithm` for `operation` (`SecKeyIsAlgorithmSupported`): verifying and
    /// encrypting only.
    public func isSupported(_ algorithm: KeyAlgorithm, for operation: KeyOperation) -> Bool {
        material.isSupported(algorithm, for: operation)
    }

    /// Whether `signature` signs `data` (a message or a digest, as `algorithm` says) under this key
    /// (`SecKeyVerifySignature`): false when it does not match (Apple's `errSecVerifyFailed`).
    ///
    /// Input the algorithm cannot take (a digest of the wrong length, an algorithm for another kind of key)
    /// throws ``KeychainError`` with `errSecParam` (-50).
    public func isValidSignature(_ signature: Data, for data: Data, algorithm: KeyAlgorithm) throws(KeychainError) -> Bool {
        do {
            try handle.verifySignature(signature, for: data, algorithm: algorithm)
            return true
        } catch  where error.status.code == KeyCryptoError.Status.verifyFailed {
            return false
        } catch {
            throw KeychainError(error, operation: .verify)
        }
    }

    /// `plaintext` encrypted to this key (`SecKeyCreateEncryptedData`) in Apple's wire format for `algorithm`:
    /// RSA PKCS#1 v1.5 or OAEP, or ECIES.
    ///
    /// A plaintext longer than the padding leaves room for, or an algorithm for another kind of key, throws
    /// ``KeychainError`` with `errSecParam` (-50).
    public func encrypt(_ plaintext: Data, algorithm: KeyAlgorithm) throws(KeychainError) -> Data {
        do {
            return try handle.encrypt(plaintext, algorithm: algorithm)
        } catch {
            throw KeychainError(error, operation: .encrypt)
        }
    }

    /// The kind and size, such as "EC P-256 public key".
    public var description: String { material.description }
}
