import KeychainModel

/// A `SecAccessControl`: an item's protection class plus the authentication its ACL requires.
public struct AccessControl: Sendable, Hashable {
    /// When the item's key is usable (the `kSecAttrAccessible` part).
    public let protection: ProtectionClass
    /// The requirements, as given to `SecAccessControlCreateWithFlags`.
    public let flags: AccessControlFlags
    /// For `biometryCurrentSet`: the enrolled set's hash when the item was stored (Apple's `pbioh`), recorded
    /// by the keychain, never by the caller. An item whose set has changed since stays unreadable.
    public let boundBiometrySet: [UInt8]?

    /// An access control without checking the flags; use ``create(protection:flags:)`` for caller input.
    public init(protection: ProtectionClass, flags: AccessControlFlags = [], boundBiometrySet: [UInt8]? = nil) {
        self.protection = protection
        self.flags = flags
        self.boundBiometrySet = boundBiometrySet
    }

    /// The same access control, bound to the enrolled biometric set `set`.
    public func binding(biometrySet set: [UInt8]) -> AccessControl {
        AccessControl(protection: protection, flags: flags, boundBiometrySet: set)
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
                .g10, key: nil, "\(AppleNames.constant(protection)) is not a protection class of keychain items")
        }
        return try create(protection: protectionClass, flags: flags)
    }

    /// Whether the ACL constrains use of the item with user authentication (any of
    /// ``AccessControlFlags/constraints``). Items with constraints may not be synchronizable (rules A4/U13).
    public var hasConstraints: Bool { !flags.isDisjoint(with: .constraints) }

    /// Whether reading the item's secret (and, per §6.3, any search that touches it) needs the person:
    /// constraints that do not guard private-key operations instead.
    public var constrainsReading: Bool { hasConstraints && !flags.contains(.privateKeyUsage) }

    /// Whether the item's secret is sealed with an application password (`kSecAccessControlApplicationPassword`).
    public var needsApplicationPassword: Bool { flags.contains(.applicationPassword) }
}
