import Foundation
import KeychainModel
import Query

/// `SecAccessControl`: an item's protection class together with the user authentication reading it requires.
///
/// Make one with ``SecAccessControlCreateWithFlags(_:_:_:_:)`` and pass it as the value of
/// ``kSecAttrAccessControl``; attribute results give it back. Apple's rules about access-control objects in
/// queries (G9: not together with ``kSecAttrAccessible``; G11: the value must be one of these; A4/U13: not
/// with constraints on a synchronizable item) are the engine's, and apply unchanged.
///
/// Reading an item whose access control has constraints needs the person: the call prompts, or reuses the
/// proof of an evaluated `LAContext` passed under ``kSecUseAuthenticationContext``.
public final class SecAccessControl: Sendable, Hashable, CustomStringConvertible {
    /// The engine's value (LocalAuthentication's `evaluateAccessControl` reads it).
    package let accessControl: AccessControl

    init(_ accessControl: AccessControl) {
        self.accessControl = accessControl
    }

    public static func == (lhs: SecAccessControl, rhs: SecAccessControl) -> Bool {
        lhs.accessControl == rhs.accessControl
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(accessControl)
    }

    /// The protection class and the flags, such as `<SecAccessControl: ak, flags 0x1 (userPresence)>`.
    public var description: String {
        let flags = SecAccessControlCreateFlags(rawValue: CFOptionFlags(accessControl.flags.rawValue))
        return "<SecAccessControl: \(accessControl.protection.rawValue), flags \(flags)>"
    }
}

/// The legacy spelling of ``SecAccessControl``.
public typealias SecAccessControlRef = SecAccessControl
