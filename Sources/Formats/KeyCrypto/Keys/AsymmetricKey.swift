import Crypto
import Foundation

/// An RSA, NIST-curve EC or Ed25519 key, public or private, as Apple's `SecKeyRef` for a software key: Apple's
/// external representations, sizes, derived attributes, and the `kSecKeyAlgorithm…` operations with Apple's
/// input checks, wire formats and statuses, on swift-crypto.
///
/// A private key also holds its public key (``publicKey``). Two keys are equal when their type, class and
/// external representation are, as Apple's key objects compare.
public struct AsymmetricKey: Sendable {
    /// The key as swift-crypto holds it.
    enum Material: Sendable {
        case ecPrivate(ECPrivateKeyMaterial)
        case ecPublic(ECPublicKeyMaterial)
        case rsaPrivate(RSAPrivateKeyMaterial)
        case rsaPublic(RSAPublicKeyMaterial)
        case edPrivate(Curve25519.Signing.PrivateKey)
        case edPublic(Curve25519.Signing.PublicKey)
    }

    let material: Material

    init(material: Material) { self.material = material }

    /// RSA, elliptic curve or Ed25519 (`kSecAttrKeyType`).
    public var type: KeyType {
        switch material {
        case .ecPrivate, .ecPublic: .ellipticCurve
        case .rsaPrivate, .rsaPublic: .rsa
        case .edPrivate, .edPublic: .ed25519
        }
    }

    /// Public or private (`kSecAttrKeyClass`).
    public var keyClass: KeyClass {
        switch material {
        case .ecPrivate, .rsaPrivate, .edPrivate: .privateKey
        case .ecPublic, .rsaPublic, .edPublic: .publicKey
        }
    }

    /// `kSecAttrKeySizeInBits`: 256, 384 or 521 for EC; the modulus's bit length for RSA; 256 for Ed25519.
    public var sizeInBits: Int {
        switch material {
        case .ecPrivate(let key): key.curve.sizeInBits
        case .ecPublic(let key): key.curve.sizeInBits
        case .rsaPrivate(let key): key.publicKey.sizeInBits
        case .rsaPublic(let key): key.sizeInBits
        case .edPrivate, .edPublic: 256
        }
    }

    /// `SecKeyGetBlockSize`: the field size in bytes for EC (32, 48, 66), the modulus's length in bytes for
    /// RSA, 32 for Ed25519.
    public var blockSize: Int { (sizeInBits + 7) / 8 }

    /// The public key of a private key; the key itself when it is public (Apple's `SecKeyCopyPublicKey`).
    public var publicKey: AsymmetricKey {
        switch material {
        case .ecPrivate(let key): AsymmetricKey(material: .ecPublic(key.publicKey))
        case .rsaPrivate(let key): AsymmetricKey(material: .rsaPublic(key.publicKey))
        case .edPrivate(let key): AsymmetricKey(material: .edPublic(key.publicKey))
        case .ecPublic, .rsaPublic, .edPublic: self
        }
    }

    /// The public key's bytes: X9.63 `04‖X‖Y` for EC, PKCS#1 `RSAPublicKey` DER for RSA, the 32-byte encoded
    /// point (RFC 8032) for Ed25519. Also the public key's external representation.
    public var publicKeyBytes: Data {
        switch material {
        case .ecPrivate(let key): key.publicKey.x963Representation
        case .ecPublic(let key): key.x963Representation
        case .rsaPrivate(let key): key.publicKey.pkcs1Representation
        case .rsaPublic(let key): key.pkcs1Representation
        case .edPrivate(let key): key.publicKey.rawRepresentation
        case .edPublic(let key): key.rawRepresentation
        }
    }

    /// `kSecAttrApplicationLabel`: the SHA-1 of ``publicKeyBytes``, the same for both halves of a pair.
    public var applicationLabel: Data { Data(Insecure.SHA1.hash(data: publicKeyBytes)) }

    /// A description for messages: the kind and size, never key bytes.
    var summary: String {
        let kind =
            switch type {
            case .rsa: "RSA \(sizeInBits)-bit"
            case .ellipticCurve: "EC P-\(sizeInBits)"
            case .ed25519: "Ed25519"
            }
        return "\(kind) \(keyClass == .privateKey ? "private" : "public") key"
    }
}
