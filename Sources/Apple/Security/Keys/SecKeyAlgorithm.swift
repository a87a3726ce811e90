import Foundation
import KeyCrypto

/// An algorithm a ``SecKey`` signs, encrypts or agrees keys with: Apple's identifier string, such as
/// `algid:sign:ECDSA:message-X962:SHA256` for ``ecdsaSignatureMessageX962SHA256``.
///
/// ``SecKeyIsAlgorithmSupported(_:_:_:)`` tells whether a key can use one; Coffer supports every algorithm
/// of SecKey.h that swift-crypto can back, and answers `false` for the others (raw RSA, RSA with SHA-224
/// digests, OAEP beyond SHA-256).
public struct SecKeyAlgorithm: RawRepresentable, Hashable, Sendable {
    /// The identifier, as a `CFString`.
    public var rawValue: CFString { NSString(string: identifier) }
    /// The identifier.
    let identifier: String

    /// The algorithm named `rawValue`.
    public init(rawValue: CFString) {
        identifier = String(rawValue)
    }

    init(_ algorithm: KeyAlgorithm) {
        identifier = algorithm.rawValue
    }

    /// The algorithm as the cryptography module knows it.
    var keyAlgorithm: KeyAlgorithm { KeyAlgorithm(rawValue: identifier) }
}
