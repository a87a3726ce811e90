/// Why a pin set or a pin could not be made: a ``code`` that code compares, and a ``reason`` for people.
///
/// Pins are public values, so reasons may quote them.
public struct PinSetError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// A pin is not base64 of a 32-byte SHA-256 digest.
        case malformedPin
        /// The set has no backup pin: fewer than two distinct pins, or (``PinSet/requireBackupPin(notIn:)``) every
        /// pin names a key of the chain the server presents today.
        case noBackupPin
        /// Bytes given as a certificate are not one.
        case unreadableCertificate
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
