import Foundation
import KeychainModel

/// Why a protected file could not be read or written: Foundation's error code with Apple's meaning, and a
/// reason for people.
///
/// A file whose class key is not available (its class is ``FileProtectionType/complete`` and the keychain
/// is locked) fails as Apple's does: `CocoaError.fileReadNoPermission` (`NSFileReadNoPermissionError`, 257)
/// when reading, `.fileWriteNoPermission` (513) when writing, with ``keychainStatus`` -25308
/// (`errSecInteractionNotAllowed`). A file that was changed, cut short, extended or reordered is
/// `.fileReadCorruptFile` (259): its bytes are never returned. ``cocoaError`` gives the same as a `CocoaError`.
/// Reasons never contain a key or the file's content.
public struct ProtectedFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Foundation's code, with Apple's meaning (`.fileReadNoPermission` for a locked class).
    public let code: CocoaError.Code
    /// The file's path, when there is one.
    public let path: String?
    /// What went wrong, for people.
    public let reason: String
    /// The keychain's status when the keychain refused (such as `.interactionNotAllowed` while locked).
    public let keychainStatus: KeychainStatus?

    /// An error with its code, path and reason.
    public init(_ code: CocoaError.Code, path: String?, reason: String, keychainStatus: KeychainStatus? = nil) {
        self.code = code
        self.path = path
        self.reason = reason
        self.keychainStatus = keychainStatus
    }

    /// Whether the file's class key was unavailable because the keychain is locked.
    public var isLocked: Bool { keychainStatus == .interactionNotAllowed }

    /// The same error as Foundation's `CocoaError`, with the path and the reason in its user info.
    public var cocoaError: CocoaError {
        var userInfo: [String: Any] = [NSLocalizedFailureReasonErrorKey: reason]
        if let path { userInfo[NSFilePathErrorKey] = path }
        return CocoaError(code, userInfo: userInfo)
    }

    /// `<path>: <reason> (NSCocoaErrorDomain <code>)`.
    public var description: String {
        "\(path.map { "\($0): " } ?? "")\(reason) (NSCocoaErrorDomain \(code.rawValue))"
    }
}
