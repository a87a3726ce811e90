import KeychainModel

/// Where a request came from, as the daemon identified its connection at connect.
struct RequestOrigin: Sendable {
    /// The connection, unique for the daemon's lifetime (prompts are tied to it).
    var connection: UInt64
    /// The caller's access groups; its passcode attempts are charged to its own count (``PasscodeAttempts/caller(_:)``).
    var caller: CallerContext
    /// Whether the caller is a trusted front end: the `coffer` command installed with its own group, or
    /// any program of the user in per-user mode (where programs are not kept apart).
    var isTrustedFrontEnd: Bool
    /// Who is calling, for prompts and logs: the program and its process, never a secret.
    var description: String
}
