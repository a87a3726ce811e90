import KeychainModel

/// A `SecAccessControl`: an item's protection class plus the authentication its ACL requires.
public struct AccessControl: Sendable, Hashable {
    /// When the item's key is usable (the `kSecAttrAccessible` part).
    public let protection: ProtectionClass
    /// The requirements, as given to `SecAccessControlCreateWithFlags`.
    public let flags: AccessControlFlags

    /// An access control without checking the flags; use ``create(protection:flags:)`` for caller input.
    public init(protection: ProtectionClass, flags: AccessControlFlags = []) {
        self.protection = protection
        self.flags = flags
    }

    /// `SecAccessControlCreateWithFlags`: validates the flag combination the way Apple does at creation.
    ///
    /// Throws a ``QueryRejection`` with ``KeychainStatus/param`` (-50) for `or` together with `and`,
    /// `biometryAny` together with `biometryCurrentSet`, or `userPresence` combined with anything other than
    /// `applicationPassword` / `privateKeyUsage` (§6.1).
    public static func create(protection: ProtectionClass, flags: AccessControlFlags) throws(QueryRejection) -> AccessControl {
        if flags.isSuperset(of: [.or, .and]) {
            throw .param(nil, key: nil, "kSecAccessControlOr and kSecAccessControlAnd cannot be combined")
        }
        if flags.isSuperset(of: [.biometryAny, .biometryCurrentSet]) {
            throw .param(
                nil, key: nil, "kSecAccessControlBiometryAny and kSecAccessControlBiometryCurrentSet cannot be combined")
        }
        if flags.contains(.userPresence),
            !flags.subtracting([.userPresence, .applicationPassword, .privateKeyUsage]).isEmpty
        {
            throw .param(
                nil, key: nil,
                "kSecAccessControlUserPresence combines only with kSecAccessControlApplicationPassword and "
                    + "kSecAccessControlPrivateKeyUsage")
        }
        return AccessControl(protection: protection, flags: flags)
    }

    /// `SecAccessControlCreateWithFlags` with the protection given as Apple's `kSecAttrAccessible…` string.
    ///
    /// An unknown string (including the SPI class `f`, which is not a keychain item class) throws a
    /// ``QueryRejection`` with ``KeychainStatus/param`` (-50, rule G10).
    public static func create(protection: String, flags: AccessControlFlags) throws(QueryRejection) -> AccessControl {
        guard let protectionClass = ProtectionClass(rawValue: protection) else {
            throw .param(
                "G10", key: nil, "\(AppleNames.constant(protection)) is not a protection class of keychain items")
        }
        return try create(protection: protectionClass, flags: flags)
    }

    /// Whether the ACL constrains use of the item with user authentication (any of
    /// ``AccessControlFlags/constraints``). Items with constraints may not be synchronizable (rules A4/U13).
    public var hasConstraints: Bool { !flags.isDisjoint(with: .constraints) }
}
