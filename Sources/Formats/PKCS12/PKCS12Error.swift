/// Why a PKCS#12 file could not be read. Compare ``code``; ``reason`` is for people and never holds the
/// passphrase or key bytes.
public struct PKCS12Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure it is.
    public enum Code: Sendable, Equatable {
        /// The bytes are not a PKCS#12 file as RFC 7292 defines it: bad DER/BER, a missing field, a length, count or
        /// iteration count out of bounds, an unknown bag or content type, or contents that do not decrypt.
        case malformed
        /// The integrity MAC does not match: the passphrase is wrong, or the file was changed.
        case macMismatch
        /// The MAC uses an algorithm this reader does not implement.
        case unsupportedMACAlgorithm
        /// Contents are encrypted with an algorithm this reader does not implement, or with a public key
        /// (public-key privacy or integrity mode).
        case unsupportedEncryption
        /// The algorithm is known, but libcrypto cannot provide it here (OpenSSL's legacy provider, which RC2 and
        /// RC4 need, could not be loaded).
        case cipherUnavailable
        /// A private key of an algorithm other than RSA and EC.
        case unsupportedKeyAlgorithm
    }

    /// What kind of failure it is.
    public let code: Code
    /// A description for people.
    public let reason: String

    /// A failure of kind `code`, described by `reason`.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The kind and the reason.
    public var description: String { "PKCS#12 \(code): \(reason)" }

    static func malformed(_ reason: String) -> PKCS12Error { PKCS12Error(.malformed, reason) }
}
