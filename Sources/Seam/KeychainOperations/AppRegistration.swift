/// An entry for the daemon's entitlements registry, as `coffer apps add` sends it: which executable is which
/// application, and which keychain access groups it may use.
public struct AppRegistration: Sendable, Hashable {
    /// The executable's absolute path, as `/proc/PID/exe` shows it; a systemd unit's name (``AppIdentityMode/systemdUnit``).
    public var executablePath: String
    /// The application identifier (`TEAMID.bundle.id` style), the item's default access group.
    public var applicationIdentifier: String
    /// The keychain access groups it is entitled to, in order.
    public var accessGroups: [String]
    /// Whether the daemon pins the executable's current SHA-256, so that a replaced binary loses the identity
    /// (path mode only).
    public var pinsExecutableHash: Bool
    /// How the daemon recognises the program.
    public var mode: AppIdentityMode

    /// A registry entry.
    public init(
        executablePath: String, applicationIdentifier: String, accessGroups: [String], pinsExecutableHash: Bool,
        mode: AppIdentityMode = .path
    ) {
        self.executablePath = executablePath
        self.applicationIdentifier = applicationIdentifier
        self.accessGroups = accessGroups
        self.pinsExecutableHash = pinsExecutableHash
        self.mode = mode
    }
}

/// How the daemon recognises a registered program.
public enum AppIdentityMode: UInt8, Sendable, Hashable {
    /// By its path (and, when pinned, its SHA-256): a convenience that the user's other programs can
    /// defeat by exec-after-connect.
    case path = 1
    /// By the group the executable is setgid to, which the kernel captures at connect (`SO_PEERCRED`):
    /// the file must be root-owned, setgid to a group of its own and not writable by group or others.
    case identityGroup = 2
    /// A systemd unit, by the name systemd gives in the address it connects from to read a credential
    /// (`LoadCredential=`); the registration's ``AppRegistration/executablePath`` holds the unit's name.
    case systemdUnit = 3
}

/// A registry entry as the daemon lists it.
public struct RegisteredApp: Sendable, Hashable {
    /// The executable's absolute path.
    public var executablePath: String
    /// The application identifier.
    public var applicationIdentifier: String
    /// The keychain access groups it is entitled to, in order.
    public var accessGroups: [String]
    /// The pinned SHA-256 of the executable, or `nil` when the entry does not pin one.
    public var executableHash: [UInt8]?
    /// The identity group's gid for an identity-group entry, `nil` for a path-mode entry.
    public var identityGroupID: UInt32?
    /// Whether the entry is a systemd unit's, whose name ``executablePath`` holds.
    public var isSystemdUnit: Bool

    /// A listed registry entry.
    public init(
        executablePath: String, applicationIdentifier: String, accessGroups: [String], executableHash: [UInt8]?,
        identityGroupID: UInt32? = nil, isSystemdUnit: Bool = false
    ) {
        self.executablePath = executablePath
        self.applicationIdentifier = applicationIdentifier
        self.accessGroups = accessGroups
        self.executableHash = executableHash
        self.identityGroupID = identityGroupID
        self.isSystemdUnit = isSystemdUnit
    }

    /// How the daemon recognises the program.
    public var mode: AppIdentityMode { isSystemdUnit ? .systemdUnit : identityGroupID == nil ? .path : .identityGroup }
}

/// Which registry entry `coffer apps remove` means.
public enum AppSelector: Sendable, Hashable {
    /// The entry for this executable path.
    case executablePath(String)
    /// The entry with this application identifier.
    case applicationIdentifier(String)
}
