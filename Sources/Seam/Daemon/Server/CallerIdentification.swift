import Foundation
import ProgramIdentity

/// What the server knows of a connection's caller once it is identified: who the kernel says it is, and
/// how the daemon recognised it (``PeerIdentity``).
typealias IdentifiedProgram = PeerIdentity

/// The server's one call into caller identification, made on a worker thread, never on the watcher.
///
/// `isAbandoned` turns true when the connection closes; identification, which reads `/proc` and may hash
/// a pinned executable, checks it between chunks and stops.
///
/// The per-user daemon has no capabilities, so it cannot read `/proc/PID/exe` of a program of its user
/// that is not dumpable: one installed setgid (an identity-group program, the `coffer` command installed
/// by install.sh). In per-user mode programs are not kept apart (the files are the user's), so such a
/// caller is served as an unregistered program named by its command name (``unreadableExecutable(_:)``)
/// rather than refused; the system daemon, which has `CAP_SYS_PTRACE`, never needs this.
func identifyCaller(
    _ peer: PeerCredentials, of keychain: UserKeychain, with identifier: PeerIdentifier, mode: DaemonConfiguration.Mode,
    isAbandoned: () -> Bool
) throws -> IdentifiedProgram {
    do {
        return try identifier.identify(peer: peer, registry: keychain.programs, isAbandoned: isAbandoned)
    } catch {
        guard case .user(_, let owner) = mode, peer.uid == owner, let name = commandName(of: peer.pid),
            peer.isStillTheConnectedProcess
        else { throw DaemonError(error) }
        let path = unreadableExecutable(name)
        return PeerIdentity(
            uid: peer.uid, pid: peer.pid, gid: peer.gid, kind: .unregistered(group: AppRegistry.unregisteredGroup(forPath: path)),
            executablePath: path, securityLabel: peer.securityLabel)
    }
}

/// The name a program whose executable the per-user daemon cannot read is known by.
func unreadableExecutable(_ commandName: String) -> String { "(unreadable executable: \(commandName))" }

/// The process's command name (`/proc/PID/comm`, readable for any process of the same user).
private func commandName(of pid: Int32) -> String? {
    guard let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return nil }
    let trimmed = name.trimmingCharacters(in: .newlines)
    return trimmed.isEmpty ? nil : trimmed
}
