/// An entry for the daemon's entitlements registry, as `coffer apps add` sends it: which executable is which
/// application, and which keychain access groups it may use.
public struct AppRegistration: Sendable, Hashable {
    /// The executable's absolute path, as `/proc/PID/exe` shows it.
    public var executablePath: String
    /// The application identifier (`TEAMID.bundle.id` style), the item's default access group.
    public var applicationIdentifier: String
    /// The keychain access groups it is entitled to, in order.
    public var accessGroups: [String]
    /// Whether the daemon pins the executable's current SHA-256, so that a replaced binary loses the identity.
    public var pinsExecutableHash: Bool

    /// A registry entry.
    public init(executablePath: String, applicationIdentifier: String, accessGroups: [String], pinsExecutableHash: Bool)
    {
        self.executablePath = executablePath
        self.applicationIdentifier = applicationIdentifier
        self.accessGroups = accessGroups
        self.pinsExecutableHash = pinsExecutableHash
    }
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

    /// A listed registry entry.
    public init(executablePath: String, applicationIdentifier: String, accessGroups: [String], executableHash: [UInt8]?)
    {
        self.executablePath = executablePath
        self.applicationIdentifier = applicationIdentifier
        self.accessGroups = accessGroups
        self.executableHash = executableHash
    }
}

/// Which registry entry `coffer apps remove` means.
public enum AppSelector: Sendable, Hashable {
    /// The entry for this executable path.
    case executablePath(String)
    /// The entry with this application identifier.
    case applicationIdentifier(String)
}
