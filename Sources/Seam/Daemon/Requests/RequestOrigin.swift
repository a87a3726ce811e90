import Foundation
import ProgramIdentity
import KeychainModel

/// Where a request came from, as the daemon identified its connection at connect.
struct RequestOrigin: Sendable {
    /// The connection, unique for the daemon's lifetime (prompts are tied to it).
    var connection: UInt64
    /// The caller's access groups; its passcode attempts are charged to its own count (``PasscodeAttempts/caller(_:)``).
    var caller: CallerContext
    /// ``caller`` with the owner's groups (``OwnerAccessGroups``), made once at connect for the requests that get them.
    var callerAsOwner: CallerContext
    /// Whether the caller is a trusted front end: the `coffer` command installed with its own group, or
    /// any program of the user in per-user mode (where programs are not kept apart).
    var isTrustedFrontEnd: Bool
    /// Whether the owner's calls (``OwnerGradePolicy``) need the owner's proof: in system mode, from every
    /// caller but root (which is outside what the daemon can protect against).
    var needsOwnerProof: Bool
    /// Who is calling, for prompts and logs: the program (control characters escaped) and its process, never a secret.
    var description: String
}

extension CallerIdentity {
    /// The identity the daemon checked at connect, as the audit journal records it.
    init(peer: PeerIdentity) {
        let kind: Kind =
            switch peer.kind {
            case .identityGroupProgram(let gid): .identityGroup(gid: gid)
            case .pathModeProgram: .registeredPath
            case .trustedFrontEnd: .trustedFrontEnd
            case .unregistered, .refused: .unregistered
            }
        self.init(uid: peer.uid, pid: peer.pid, program: peer.executablePath, kind: kind)
    }
}

extension RequestOrigin {
    /// The origin of a connection's requests, from who the daemon identified at connect.
    ///
    /// Passcode attempts are charged to the program (its executable), not to the process, so that a new
    /// process or connection of the same program keeps the count. In per-user mode every program of the
    /// user is a trusted front end: the files are the user's, so the daemon keeps no program from them. So
    /// is every program of root in system mode, and of the daemon's own user (`coffer`, whose files the keychains
    /// are): both are outside what the daemon can protect against.
    init(connection: UInt64, identity: PeerIdentity, keychain: UserKeychain, mode: DaemonConfiguration.Mode) {
        var caller =
            switch mode {
            case .user: keychain.callerInPerUserMode(for: identity)
            case .system: keychain.caller(for: identity)
            }
        caller.passcodeAttempts = .caller(identity.executablePath)
        caller.identity = CallerIdentity(peer: identity)
        let beyondProtection = identity.uid == 0 || identity.uid == geteuid()
        let trusted =
            switch mode {
            case .user: true
            case .system: identity.isTrustedFrontEnd || beyondProtection
            }
        let needsOwnerProof =
            switch mode {
            case .user: false
            case .system: !beyondProtection
            }
        self.init(
            connection: connection, caller: caller, callerAsOwner: caller.withOwnerGroups(), isTrustedFrontEnd: trusted,
            needsOwnerProof: needsOwnerProof,
            description: "\(ControlCharacterEscaping.escaped(identity.executablePath)) (pid \(identity.pid))")
    }
}
