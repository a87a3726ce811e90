import Foundation
import KeyCrypto
import KeychainKeys
import KeychainOperations
import Query

/// `SecKey`: a public or private key, RSA, elliptic-curve or Ed25519, held in this process (a software key) or
/// kept by the keychain so that its private part never leaves it (a Secure Enclave key, made with
/// `kSecAttrTokenID = kSecAttrTokenIDSecureEnclave`).
///
/// Make one with ``SecKeyCreateRandomKey(_:_:)`` or ``SecKeyCreateWithData(_:_:_:)``, or get one from the
/// keychain with `kSecReturnRef`. Keys compare equal and hash by value, as Apple's do.
public final class SecKey: Sendable, Hashable, CustomStringConvertible {
    /// The key: what it is and does is the key layer's (``KeyHandle``).
    let handle: KeyHandle

    init(_ handle: KeyHandle) {
        self.handle = handle
    }

    public static func == (lhs: SecKey, rhs: SecKey) -> Bool { lhs.handle == rhs.handle }

    public func hash(into hasher: inout Hasher) { hasher.combine(handle) }

    /// The algorithm, class and size, such as `<SecKeyRef algorithm id: 3, key type: ECPrivateKey, block size: 256 bits>`
    /// (algorithm ids as SecKeyPriv.h numbers them: 1 RSA, 3 ECDSA, 4 Ed25519); never the key's bytes.
    public var description: String {
        let (algorithm, family) =
            switch handle.type {
            case .rsa: (1, "RSA")
            case .ellipticCurve: (3, "EC")
            case .ed25519: (4, "Ed25519")
            }
        let kind = family + (handle.keyClass == .privateKey ? "PrivateKey" : "PublicKey")
        let token = handle.isKept ? ", token: com.apple.setoken" : ""
        return "<SecKeyRef algorithm id: \(algorithm), key type: \(kind)\(token), block size: \(handle.sizeInBits) bits>"
    }
}

/// The legacy spelling of ``SecKey``.
public typealias SecKeyRef = SecKey

/// The type identifier of ``SecKey``, for comparison with ``CFGetTypeID(_:)``.
public func SecKeyGetTypeID() -> CFTypeID { TypeIdentifier.key.rawValue }
