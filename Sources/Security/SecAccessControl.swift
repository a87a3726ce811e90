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
/// Coffer stores and returns access control now; requiring the authentication when an item is read comes
/// with LocalAuthentication.
public final class SecAccessControl: Sendable, Hashable, CustomStringConvertible {
    /// The engine's value.
    let accessControl: AccessControl

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

/// What an access control requires (`SecAccessControlCreateFlags`), with Apple's bit values (reference §6.1).
public struct SecAccessControlCreateFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: CFOptionFlags

    public init(rawValue: CFOptionFlags) { self.rawValue = rawValue }

    private init(_ flags: AccessControlFlags) { rawValue = CFOptionFlags(flags.rawValue) }

    /// `kSecAccessControlUserPresence`: biometry or the device passcode.
    public static let userPresence = SecAccessControlCreateFlags(.userPresence)
    /// `kSecAccessControlBiometryAny`: any enrolled finger or face.
    public static let biometryAny = SecAccessControlCreateFlags(.biometryAny)
    /// `kSecAccessControlTouchIDAny`, the deprecated name of ``biometryAny``.
    public static let touchIDAny = biometryAny
    /// `kSecAccessControlBiometryCurrentSet`: the biometric set enrolled when the item was added.
    public static let biometryCurrentSet = SecAccessControlCreateFlags(.biometryCurrentSet)
    /// `kSecAccessControlTouchIDCurrentSet`, the deprecated name of ``biometryCurrentSet``.
    public static let touchIDCurrentSet = biometryCurrentSet
    /// `kSecAccessControlDevicePasscode`: the device passcode.
    public static let devicePasscode = SecAccessControlCreateFlags(.devicePasscode)
    /// `kSecAccessControlCompanion`: a paired companion device.
    public static let companion = SecAccessControlCreateFlags(.companion)
    /// `kSecAccessControlWatch`, the deprecated name of ``companion``.
    public static let watch = companion
    /// `kSecAccessControlOr`: any one constraint suffices.
    public static let or = SecAccessControlCreateFlags(.or)
    /// `kSecAccessControlAnd`: every constraint is required.
    public static let and = SecAccessControlCreateFlags(.and)
    /// `kSecAccessControlPrivateKeyUsage`: the constraints guard private-key operations.
    public static let privateKeyUsage = SecAccessControlCreateFlags(.privateKeyUsage)
    /// `kSecAccessControlApplicationPassword`: an application password is also required.
    public static let applicationPassword = SecAccessControlCreateFlags(.applicationPassword)

    /// The raw value in hex and the names of the flags it contains, such as `0x4001 (userPresence|or)`.
    public var description: String {
        let names: [(SecAccessControlCreateFlags, String)] = [
            (.userPresence, "userPresence"), (.biometryAny, "biometryAny"), (.biometryCurrentSet, "biometryCurrentSet"),
            (.devicePasscode, "devicePasscode"), (.companion, "companion"), (.or, "or"), (.and, "and"),
            (.privateKeyUsage, "privateKeyUsage"), (.applicationPassword, "applicationPassword"),
        ]
        let present = names.filter { contains($0.0) }.map(\.1)
        return "0x" + String(rawValue, radix: 16) + " (" + (present.isEmpty ? "none" : present.joined(separator: "|")) + ")"
    }
}

/// Makes an access control for `protection` (a `kSecAttrAccessible…` value) requiring `flags`.
///
/// Returns nil and sets `error` (domain ``kCFErrorDomainOSStatus``, code ``errSecParam``) when Apple
/// refuses the combination (reference §6.1): `or` with `and`, `biometryAny` with `biometryCurrentSet`,
/// `userPresence` with anything but `applicationPassword`/`privateKeyUsage`, or a protection that is
/// not a keychain protection class.
@discardableResult
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    let protectionValue = ValueBridge.value(of: protection)
    do throws(QueryRejection) {
        guard case .string(let name) = protectionValue else {
            throw QueryRejection(status: .param, rule: nil, key: nil, reason: "the protection is not a string but \(protectionValue.typeName)")
        }
        let control = try AccessControl.create(protection: name, flags: AccessControlFlags(rawValue: UInt64(flags.rawValue)))
        Diagnostics.log("SecAccessControlCreateWithFlags(\(name), \(flags))", status: .success)
        return SecAccessControl(control)
    } catch {
        let call = "SecAccessControlCreateWithFlags refused protection \(Diagnostics.render(protectionValue)) with flags \(flags)"
        Diagnostics.log(call, status: error.status, reason: error.message)
        error.status.report("\(call) (\(error.message))", to: errorOut)
        return nil
    }
}

/// The type identifier of ``SecAccessControl``, for comparison with ``CFGetTypeID(_:)``.
public func SecAccessControlGetTypeID() -> CFTypeID { TypeIdentifier.accessControl.rawValue }
