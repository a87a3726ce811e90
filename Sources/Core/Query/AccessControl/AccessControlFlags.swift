/// `SecAccessControlCreateFlags`: what an item's access control requires, with Apple's bit values.
public struct AccessControlFlags: OptionSet, Sendable, Hashable {
    /// The raw `SecAccessControlCreateFlags` value.
    public let rawValue: UInt64

    /// Flags from a raw `SecAccessControlCreateFlags` value.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// `kSecAccessControlUserPresence`: biometry or the device passcode.
    public static let userPresence = AccessControlFlags(rawValue: 1 << 0)
    /// `kSecAccessControlBiometryAny`: any enrolled finger or face.
    public static let biometryAny = AccessControlFlags(rawValue: 1 << 1)
    /// `kSecAccessControlBiometryCurrentSet`: the biometric set enrolled when the item was created.
    public static let biometryCurrentSet = AccessControlFlags(rawValue: 1 << 3)
    /// `kSecAccessControlDevicePasscode`: the device passcode.
    public static let devicePasscode = AccessControlFlags(rawValue: 1 << 4)
    /// `kSecAccessControlCompanion` (formerly `Watch`): a paired companion device.
    public static let companion = AccessControlFlags(rawValue: 1 << 5)
    /// `kSecAccessControlOr`: any one of the constraints suffices.
    public static let or = AccessControlFlags(rawValue: 1 << 14)
    /// `kSecAccessControlAnd`: every constraint is required.
    public static let and = AccessControlFlags(rawValue: 1 << 15)
    /// `kSecAccessControlPrivateKeyUsage`: constraints guard private-key operations instead of reading.
    public static let privateKeyUsage = AccessControlFlags(rawValue: 1 << 30)
    /// `kSecAccessControlApplicationPassword`: an application-supplied password is also required.
    public static let applicationPassword = AccessControlFlags(rawValue: 1 << 31)

    /// The flags that add a user-authentication constraint (everything but the combinators, private-key
    /// usage and the application password).
    public static let constraints: AccessControlFlags = [
        .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .companion,
    ]
}
