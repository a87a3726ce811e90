import Foundation
import KeyCrypto
import KeychainOperations
import Query

/// `SecKey`: a public or private key, RSA, elliptic-curve or Ed25519, held in this process (a software key) or
/// kept by the keychain so that its private part never leaves it (a Secure Enclave key, made with
/// `kSecAttrTokenID = kSecAttrTokenIDSecureEnclave`).
///
/// Make one with ``SecKeyCreateRandomKey(_:_:)`` or ``SecKeyCreateWithData(_:_:_:)``, or get one from the
/// keychain with `kSecReturnRef`. Keys compare equal and hash by value, as Apple's do.
public final class SecKey: Sendable, Hashable, CustomStringConvertible {
    /// Where the key's private part lives.
    enum Material: Sendable, Hashable {
        /// A software key: the whole key is here.
        case software(AsymmetricKey)
        /// A key whose private part the keychain keeps: its handle, its public key, and how its uses authenticate.
        case token(TokenKey, publicKey: AsymmetricKey, authentication: TokenKeyAuthentication)
    }

    let material: Material

    init(_ material: Material) {
        self.material = material
    }

    /// The key's public half, or the key itself when it is public (software keys).
    var publicHalf: AsymmetricKey {
        switch material {
        case .software(let key): key.publicKey
        case .token(_, let publicKey, _): publicKey
        }
    }

    /// The key's type.
    var keyType: KeyType {
        switch material {
        case .software(let key): key.type
        case .token(_, let publicKey, _): publicKey.type
        }
    }

    /// The key's class.
    var keyClass: KeyClass {
        switch material {
        case .software(let key): key.keyClass
        case .token: .privateKey
        }
    }

    public static func == (lhs: SecKey, rhs: SecKey) -> Bool {
        switch (lhs.material, rhs.material) {
        case (.software(let left), .software(let right)): left == right
        case (.token(let left, _, _), .token(let right, _, _)): left.sealed == right.sealed
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch material {
        case .software(let key): hasher.combine(key)
        case .token(let handle, _, _): hasher.combine(handle.sealed)
        }
    }

    /// The algorithm, class and size, such as `<SecKeyRef algorithm id: 3, key type: ECPrivateKey, block size: 256 bits>`
    /// (algorithm ids as SecKeyPriv.h numbers them: 1 RSA, 3 ECDSA, 4 Ed25519); never the key's bytes.
    public var description: String {
        let (algorithm, family) =
            switch keyType {
            case .rsa: (1, "RSA")
            case .ellipticCurve: (3, "EC")
            case .ed25519: (4, "Ed25519")
            }
        let kind = family + (keyClass == .privateKey ? "PrivateKey" : "PublicKey")
        let token = if case .token = material { ", token: com.apple.setoken" } else { "" }
        return "<SecKeyRef algorithm id: \(algorithm), key type: \(kind)\(token), block size: \(publicHalf.sizeInBits) bits>"
    }
}

/// The legacy spelling of ``SecKey``.
public typealias SecKeyRef = SecKey

/// The type identifier of ``SecKey``, for comparison with ``CFGetTypeID(_:)``.
public func SecKeyGetTypeID() -> CFTypeID { TypeIdentifier.key.rawValue }
