/// Access groups only the keychain's owner reaches: through the system daemon, a connection that proved the
/// keychain passcode (or any caller while no passcode is set); in the embedded keychain and the per-user
/// daemon, every caller, as every file is the user's there.
///
/// The ssh-agent keeps its keys here, so a program that merely runs `coffer` can neither read a key's limit
/// nor change it; no program may be registered with one of these groups.
public enum OwnerAccessGroups {
    /// The group of the SSH agent's keys (`coffer ssh-agent`, `coffer create-key --ssh`).
    public static let sshAgent = "coffer.owner.ssh-agent"

    /// Every owner's group.
    public static let all = [sshAgent]

    /// Whether `group` is one of the owner's.
    public static func contains(_ group: String) -> Bool { all.contains(group) }
}

extension CallerContext {
    /// This caller with the owner's groups added after its own (its default group for adds stays first). A caller
    /// with no group at all stays without one: it is refused everything (rule G1), the owner's groups included.
    public func withOwnerGroups() -> CallerContext {
        guard case .list(let groups) = accessGroups, !groups.isEmpty else { return self }
        var copy = self
        copy.accessGroups = .list(groups + OwnerAccessGroups.all.filter { !groups.contains($0) })
        return copy
    }
}
