/// Who is calling: the answer ``PeerIdentifier/identify(peer:registry:isAbandoned:)`` gives once per
/// connection, at connect, and the daemon keeps for the connection's life.
public struct PeerIdentity: Sendable, Hashable {
    /// How the caller was recognised.
    public enum Kind: Sendable, Hashable {
        /// A program registered by its identity group: it runs setgid to `gid` (the kernel captured that
        /// group at connect) from a root-owned file that carries it.
        case identityGroupProgram(gid: UInt32)
        /// A program registered by path (the convenience mode): its executable is the file at `path` as the
        /// daemon sees it, in the daemon's namespaces; `sha256` is set when the entry pins a hash.
        case pathModeProgram(path: String, sha256: String?)
        /// A program that is not registered: it gets `group`, a group of its own, and sees only what it created.
        case unregistered(group: String)
        /// The trusted front end (the `coffer` CLI installed setgid to the trusted group). For items it is an
        /// unregistered program with `group`; only it may, in a later step, send passcodes and registry edits.
        case trustedFrontEnd(group: String)
        /// Recognised as posing as a registered program without its proof (exec after connect, a foreign
        /// namespace, a debugger, a nosuid mount…): every request fails with `errSecMissingEntitlement`.
        case refused(reason: String)
    }

    /// The caller's user ID (which keychain).
    public let uid: UInt32
    /// The caller's process ID at connect.
    public let pid: Int32
    /// The caller's effective group ID at connect (`SO_PEERCRED`).
    public let gid: UInt32
    /// How it was recognised.
    public let kind: Kind
    /// The running executable's path as the kernel reports it, " (deleted)" removed: for logs, not proof.
    public let executablePath: String
    /// The caller's LSM label (`SO_PEERSEC`, e.g. an AppArmor profile), when an LSM provides one. Recorded
    /// and logged; nothing depends on it.
    public let securityLabel: String?

    /// Creates an identity.
    public init(uid: UInt32, pid: Int32, gid: UInt32, kind: Kind, executablePath: String, securityLabel: String? = nil) {
        self.uid = uid
        self.pid = pid
        self.gid = gid
        self.kind = kind
        self.executablePath = executablePath
        self.securityLabel = securityLabel
    }

    /// Whether the caller is the trusted front end: its effective group at connect was the trusted group,
    /// and its running executable is root-owned, setgid to that group and writable by no one else.
    public var isTrustedFrontEnd: Bool {
        if case .trustedFrontEnd = kind { return true }
        return false
    }

    /// A short description for log lines (no secrets: a pid, a uid, a path and the kind).
    public var logDescription: String {
        let what: String
        switch kind {
        case .identityGroupProgram(let gid): what = "identity-group program (gid \(gid))"
        case .pathModeProgram(_, let hash): what = hash == nil ? "path-mode program" : "path-mode program (pinned)"
        case .unregistered(let group): what = "unregistered program (\(group))"
        case .trustedFrontEnd: what = "trusted front end"
        case .refused(let reason): what = "refused: \(reason)"
        }
        return "pid \(pid) uid \(uid) \(executablePath): \(what)" + (securityLabel.map { " [label \($0)]" } ?? "")
    }
}
