/// The rule for an executable that carries an identity group, shared by the daemon (which checks the
/// running file) and the CLI (which sets files up and tells the user what is missing): a regular file
/// owned by root, setgid to a group other than root's, writable by neither its group nor others — so
/// that no one but root can change what runs with that group.
public enum IdentityFileRule {
    /// `S_ISGID`.
    public static let setGroupIDBit: UInt32 = 0o2000

    /// Whether a file with these `stat` fields carries the identity of its group.
    public static func carriesIdentity(owner: UInt32, group: UInt32, mode: UInt32) -> Bool {
        mode & 0o170000 == 0o100000 && owner == 0 && group != 0 && mode & setGroupIDBit != 0 && mode & 0o022 == 0
    }
}
