import Query

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
