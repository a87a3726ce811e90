/// Why a keychain identity cannot serve TLS, or why one of its operations failed: a ``code`` that code compares,
/// and a ``reason`` for people (never key material).
public struct TLSIdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The certificate of the identity, or one of its intermediates, cannot be read.
        case unreadableCertificate
        /// The identity's key is of a type TLS signing is not offered for here (see ``KeychainTLSIdentity``).
        case unsupportedKey
        /// swift-nio-ssl asked for a signature scheme the key does not offer.
        case unsupportedSignatureAlgorithm
        /// The keychain refused or failed to sign (locked, access control not met, a key of another keychain).
        case signingFailed
        /// swift-nio-ssl asked for an RSA decryption (RSA key exchange), which is not forward secret and not offered.
        case decryptionNotOffered
    }

    /// What went wrong, for code.
    public let code: Code
    /// What went wrong, for people.
    public let reason: String

    /// An error with its code and reason.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The reason, after the code.
    public var description: String { "\(code): \(reason)" }
}
