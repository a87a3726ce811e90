/// The program at the other end of one connection to the agent, as cofferd would see it: its access groups decide
/// which limited keys (``AgentKeyTag/allowedGroups``) it may list and use. Keys without a limit serve every caller.
public struct AgentCaller: Sendable, Hashable {
    /// Its access groups (a registered program's, or the group derived from an unregistered program's path). Empty
    /// for a caller that could not be identified or that poses as a registered program without its proof: it is
    /// served only the keys that have no limit.
    public let accessGroups: [String]
    /// A short description for log lines: a pid, a path and how it was recognised.
    public let logDescription: String

    /// A caller with `accessGroups`.
    public init(accessGroups: [String], logDescription: String) {
        self.accessGroups = accessGroups
        self.logDescription = logDescription
    }

    /// A caller that was not identified: it is served only the keys without a program limit.
    public static let unidentified = AgentCaller(accessGroups: [], logDescription: "unidentified")

    /// Whether the caller may list and use `key`.
    public func mayUse(_ key: AgentKey) -> Bool {
        key.tag.allows(callerGroups: accessGroups)
    }
}
