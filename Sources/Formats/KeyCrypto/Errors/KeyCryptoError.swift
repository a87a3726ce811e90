/// Why a key operation failed: the `OSStatus` Apple's `CFError` carries (domain `NSOSStatusErrorDomain`) and a
/// message for people.
///
/// Code compares ``status``; the message names the algorithm or the rule, never key bytes, plaintext or
/// secrets.
public struct KeyCryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Apple's `OSStatus` for the failure, as Apple reports it (see ``Status``).
    public let status: Int32
    /// What went wrong, for people.
    public let message: String

    /// An error with Apple's `status` and a message for people.
    public init(status: Int32, message: String) {
        self.status = status
        self.message = message
    }

    /// The message and the status.
    public var description: String { "\(message) (OSStatus \(status))" }
}

extension KeyCryptoError {
    /// The `OSStatus` values this module reports, with Apple's names.
    public enum Status {
        /// `errSecParam` (-50): bad input, and also an algorithm the key does not support (Apple's
        /// "algorithm not supported by the key").
        public static let param: Int32 = -50
        /// `errSecVerifyFailed` (-67808): a signature does not match.
        public static let verifyFailed: Int32 = -67808
        /// `errSecDecode` (-26275): the key exchange could not compute a secret (a peer on another curve).
        public static let decode: Int32 = -26275
        /// `errSecNotAvailable`: the holder of a held key (the TPM) cannot be used.
        public static let notAvailable: Int32 = -25291
    }

    static func param(_ message: String) -> KeyCryptoError { KeyCryptoError(status: Status.param, message: message) }

    static func verifyFailed(_ message: String) -> KeyCryptoError {
        KeyCryptoError(status: Status.verifyFailed, message: message)
    }

    /// Apple's answer for an algorithm the key cannot perform for the operation (a wrong key class or type
    /// included): `errSecParam`.
    static func unsupported(_ algorithm: KeyAlgorithm, by key: AsymmetricKey) -> KeyCryptoError {
        param("\(algorithm.rawValue): algorithm not supported by the key (\(key.summary))")
    }
}
