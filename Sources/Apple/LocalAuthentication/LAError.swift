import Foundation

/// LocalAuthentication's error domain, `com.apple.LocalAuthentication`.
public let LAErrorDomain = "com.apple.LocalAuthentication"

/// An error of LocalAuthentication, in the shape Swift gives Apple's `NSError`-based `LAError`.
///
/// Evaluations hand it to their reply as `Error?`, and the `async` forms throw it, so each of these works
/// as on Apple's platforms:
///
/// ```swift
/// catch LAError.userCancel { … }                       // pattern on the code
/// catch let error as LAError { switch error.code { case .userCancel: … } }
/// (error as NSError).code == LAError.Code.userCancel.rawValue   // domain LAErrorDomain
/// ```
///
/// ``errorUserInfo`` carries `NSLocalizedDescription`, a short sentence like Apple's ("Canceled by user."),
/// and `NSDebugDescription`, the keychain's reason for people diagnosing it (never a passcode).
///
/// On Linux an `NSError` is not converted back with `as? LAError`; use ``init(_nsError:)``. The code
/// patterns (`catch LAError.userCancel`) match such an `NSError` too.
public struct LAError: CustomNSError, Hashable, Sendable {
    /// The error as an `NSError` (domain ``LAErrorDomain``).
    public let _nsError: NSError

    /// The `LAError` an `NSError` of domain ``LAErrorDomain`` carries. Any other domain is a programming
    /// error and stops the program, as on Apple's platforms.
    public init(_nsError error: NSError) {
        precondition(error.domain == LAErrorDomain, "an LAError needs an NSError of domain \(LAErrorDomain), not \(error.domain)")
        // NSError is immutable; the reference is shared, never changed.
        _nsError = error
    }

    /// An error with `code` and `userInfo`.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.init(_nsError: NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: userInfo))
    }

    /// ``LAErrorDomain``.
    public static var errorDomain: String { LAErrorDomain }

    /// The error's code (``Code/authenticationFailed`` for a code this module does not know).
    public var code: Code { Code(rawValue: _nsError.code) ?? .authenticationFailed }

    /// The code's raw value.
    public var errorCode: Int { _nsError.code }

    /// The user-info dictionary: `NSLocalizedDescription` and, when known, `NSDebugDescription`.
    public var errorUserInfo: [String: Any] { _nsError.userInfo }

    /// The short sentence for people (`NSLocalizedDescription`).
    public var localizedDescription: String { _nsError.localizedDescription }

    /// Two errors are equal when their domain, code and user info are.
    public static func == (lhs: LAError, rhs: LAError) -> Bool { lhs._nsError.isEqual(rhs._nsError) }

    /// Hashes the code.
    public func hash(into hasher: inout Hasher) { hasher.combine(_nsError.code) }
}
