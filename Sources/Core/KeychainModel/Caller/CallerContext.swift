import Foundation

/// Who is calling, as far as the keychain cares: the access groups the caller may use, which failed-attempt count
/// its passcode attempts are charged to, and who it is for the audit journal.
public struct CallerContext: Sendable, Hashable {
    /// The caller's access groups, in entitlement order.
    public enum AccessGroups: Sendable, Hashable {
        /// Exactly these groups (Apple's entitlement semantics): the first is the default for add,
        /// an explicit group outside the list is `errSecMissingEntitlement`, and searches without an
        /// explicit group cover all of them. An empty list fails every call with -34018 (rule G1).
        case list([String])
        /// Any group is accepted and searches cover every group; adds without a group use `defaultGroup`.
        /// Embedded mode with `COFFER_ACCESS_GROUPS` unset.
        case unrestricted(defaultGroup: String)
    }

    /// The caller's groups.
    public var accessGroups: AccessGroups
    /// Which failed-attempt count the caller's passcode attempts are charged to.
    public var passcodeAttempts: PasscodeAttempts
    /// Who the caller is, as the kernel identified it: this process unless the daemon says otherwise.
    public var identity: CallerIdentity

    /// Creates a caller context; passcode attempts are charged to the keybag's count unless told otherwise.
    public init(accessGroups: AccessGroups, passcodeAttempts: PasscodeAttempts = .keybag, identity: CallerIdentity = .thisProcess) {
        self.accessGroups = accessGroups
        self.passcodeAttempts = passcodeAttempts
        self.identity = identity
    }

    /// The access groups as a list, for people: every group a restricted caller has, or its default alone.
    public var groupList: [String] {
        switch accessGroups {
        case .list(let groups): groups
        case .unrestricted(let group): [group]
        }
    }

    /// The group used for items added without one in embedded mode when `COFFER_ACCESS_GROUPS` is unset.
    public static let embeddedDefaultGroup = "coffer.default"

    /// The embedded-mode caller from `COFFER_ACCESS_GROUPS` (comma-separated, first = default for add),
    /// or an unrestricted caller whose default group is ``embeddedDefaultGroup`` when it is unset or empty.
    public static func embedded(environment: [String: String]) -> CallerContext {
        let groups = (environment["COFFER_ACCESS_GROUPS"] ?? "")
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        // The process holds the keychain's files, so it is the owner: its list reaches the owner's groups too.
        return groups.isEmpty
            ? CallerContext(accessGroups: .unrestricted(defaultGroup: embeddedDefaultGroup))
            : CallerContext(accessGroups: .list(groups)).withOwnerGroups()
    }

    /// The group an add without `kSecAttrAccessGroup` uses; nil when the caller has no groups.
    public var defaultGroup: String? {
        switch accessGroups {
        case .list(let groups): groups.first
        case .unrestricted(let group): group
        }
    }

    /// Whether the caller may name `group` explicitly.
    public func mayUse(_ group: String) -> Bool {
        switch accessGroups {
        case .list(let groups): groups.contains(group) || groups.contains("*")
        case .unrestricted: true
        }
    }

    /// The groups a search without an explicit group covers; nil means every group.
    public var searchableGroups: [String]? {
        switch accessGroups {
        case .list(let groups): groups.contains("*") ? nil : groups
        case .unrestricted: nil
        }
    }

    /// Whether the caller has any group at all (rule G1).
    public var hasAnyGroup: Bool {
        if case .list(let groups) = accessGroups { return !groups.isEmpty }
        return true
    }
}
