import CofferDiagnostics
import Logging

/// Decides who is calling, once per connection: ``identify(peer:registry:isAbandoned:)`` is the one entry
/// point the server calls.
///
/// The proof it relies on is the effective group `SO_PEERCRED` reports: the kernel captured it when the
/// peer called `connect`, so nothing the peer does afterwards (exec, bind mounts, rewriting files) changes
/// it. A program registered by its identity group runs setgid to a group of its own; the identifier
/// checks that the running file carries that group (root-owned, setgid to it, writable by no one else)
/// and that the process got the group through the setgid bit (so it runs in secure-execution mode).
/// Path-mode entries and unregistered programs are recognised from `/proc/PID/exe`, with the checks the
/// kernel allows: the same namespaces as the daemon's reference, the same file as the one at the
/// registered path, and a bounded hash when the entry pins one. See the ProgramIdentity article.
public final class PeerIdentifier: Sendable {
    /// The group of the trusted front end, if one is configured.
    public let trustedFrontEndGroup: UInt32?
    /// Hashes executables for pinned path-mode entries (its cache lives as long as the identifier).
    private let hasher: ExecutableHasher
    private let procRoot: String
    private let reference: ProcessNamespaces?
    private let logger = DiagnosticsLevel.logger(label: "coffer.daemon.identity")

    /// An identifier trusting `trustedFrontEndGroup` (nil: no trusted front end), hashing files up to
    /// `maximumHashedSize` bytes, reading `procRoot`.
    public init(
        trustedFrontEndGroup: UInt32? = nil, maximumHashedSize: Int64 = ExecutableHasher.defaultMaximumSize,
        procRoot: String = "/proc"
    ) {
        self.trustedFrontEndGroup = trustedFrontEndGroup
        hasher = ExecutableHasher(maximumSize: maximumHashedSize)
        self.procRoot = procRoot
        reference = ProcessNamespaces.reference(procRoot: procRoot)
    }

    /// Who is behind `peer`.
    ///
    /// - Parameters:
    ///   - peer: the connection's credentials (`PeerCredentials.of(socket:)`), read right after `accept`.
    ///   - registry: the calling user's registered programs.
    ///   - isAbandoned: asked between 64 KiB chunks while an executable is hashed (only for a pinned
    ///     path-mode entry); return true once the connection is closed (``SocketHangup/hasHungUp(_:)``)
    ///     and the work stops.
    /// - Returns: the identity; a caller posing as a registered program without its proof is
    ///   ``PeerIdentity/Kind/refused(reason:)`` (logged with pid, uid and path), and gets
    ///   `errSecMissingEntitlement` for every request.
    /// - Throws: ``IdentificationError/unidentifiablePeer(_:)`` when the peer cannot be identified at all: it exited
    ///   or its PID was reused, its executable cannot be read (no `CAP_SYS_PTRACE` for another uid's
    ///   process), or it went away during hashing. The connection is then to be closed.
    public func identify(
        peer: PeerCredentials, registry: some RegisteredPrograms, isAbandoned: () -> Bool
    ) throws(IdentificationError) -> PeerIdentity {
        let executable: RunningExecutable
        do {
            executable = try RunningExecutable(pid: peer.pid, procRoot: procRoot)
        } catch {
            if let identity = identityGroupProgramFromCredentials(peer, registry: registry) { return identity }
            throw error
        }
        let kind = try kind(of: peer, executable: executable, registry: registry, isAbandoned: isAbandoned)
        guard peer.isStillTheConnectedProcess else {
            throw .unidentifiablePeer("process \(peer.pid) exited or its PID was reused while it was identified")
        }
        let identity = PeerIdentity(
            uid: peer.uid, pid: peer.pid, gid: peer.gid, kind: kind, executablePath: executable.path,
            securityLabel: peer.securityLabel)
        if case .refused = kind {
            logger.warning("refused a caller's program identity: \(identity.logDescription)")
        } else {
            logger.debug("identified \(identity.logDescription)")
        }
        return identity
    }

    /// A program registered by identity group, recognised from the kernel's credentials alone, for an identifier that
    /// may not read the program's executable: the Secret Service provider and the ssh-agent run as the user, without
    /// `CAP_SYS_PTRACE`, and a setgid program is not dumpable, so the kernel hides its `/proc/PID/exe` from them.
    ///
    /// The effective group captured at connect is a registered identity group, which has no members: a process holds
    /// it only through the root-owned file setgid to it, or a program that file started. `/proc/PID/status`, which
    /// the kernel shows for any process, must say it got the group that way (its real group is another), and the
    /// process must still be the one that connected. Nil when any of that is not so.
    private func identityGroupProgramFromCredentials(_ peer: PeerCredentials, registry: some RegisteredPrograms) -> PeerIdentity? {
        guard let app = registry.snapshot.entry(identityGroup: peer.gid), let record = app.identity,
            ProcessGroupIDs.of(pid: peer.pid, procRoot: procRoot)?.gotThroughSetgid(peer.gid) == true,
            peer.isStillTheConnectedProcess
        else { return nil }
        let identity = PeerIdentity(
            uid: peer.uid, pid: peer.pid, gid: peer.gid, kind: .identityGroupProgram(gid: record.gid), executablePath: app.path,
            securityLabel: peer.securityLabel)
        logger.debug("identified from its credentials alone (its executable is hidden): \(identity.logDescription)")
        return identity
    }

    private func kind(
        of peer: PeerCredentials, executable: borrowing RunningExecutable, registry: some RegisteredPrograms,
        isAbandoned: () -> Bool
    ) throws(IdentificationError) -> PeerIdentity.Kind {
        let gid = peer.gid
        let file = executable.file
        let provesGroup =
            (file.carriesIdentity(ofGroup: gid) || file.isRemovedExecutable(ofGroup: gid))
            && ProcessGroupIDs.of(pid: peer.pid, procRoot: procRoot)?.gotThroughSetgid(gid) == true
        if let trusted = trustedFrontEndGroup, gid == trusted {
            guard provesGroup else {
                return .refused(reason: "runs with the trusted front end's group, but not from a root-owned executable setgid to it")
            }
            return .trustedFrontEnd(group: AppRegistry.unregisteredGroup(forPath: executable.path))
        }
        let apps = registry.snapshot
        if let app = apps.entry(identityGroup: gid), let record = app.identity {
            guard provesGroup else {
                return .refused(reason: "runs with the identity group of \(app.path) (gid \(gid)) without running that program from a file carrying it")
            }
            return identityGroupKind(app: app, record: record, executable: executable, registry: registry)
        }
        if let app = apps.entry(path: executable.path) {
            if let record = app.identity {
                return .refused(
                    reason:
                        "is \(app.path), registered by identity group \(record.gid), but does not run with that group (exec after connect, a user namespace, a debugger or a nosuid mount)"
                )
            }
            return try pathModeKind(app: app, peer: peer, executable: executable, isAbandoned: isAbandoned)
        }
        let sameNamespaces = ProcessNamespaces.of(pid: String(peer.pid), procRoot: procRoot) == reference && reference != nil
        return .unregistered(
            group: sameNamespaces
                ? AppRegistry.unregisteredGroup(forPath: executable.path)
                : AppRegistry.foreignNamespaceGroup(forPath: executable.path))
    }

    /// An identity-group program is the registered one when its running file is the recorded file, the
    /// file now at the registered path (recorded from now on: an upgrade replaced it), or a file of that
    /// path removed while it ran (the process started before the upgrade).
    private func identityGroupKind(
        app: RegisteredApp, record: RegisteredApp.IdentityRecord, executable: borrowing RunningExecutable,
        registry: some RegisteredPrograms
    ) -> PeerIdentity.Kind {
        let running = executable.file
        if running.device == record.device && running.inode == record.inode {
            return .identityGroupProgram(gid: record.gid)
        }
        if let current = FileIdentity.at(path: app.path), current.isSameFile(as: running) {
            registry.recordFile(ofGroup: record.gid, device: running.device, inode: running.inode)
            logger.notice("the file of a registered program was replaced; recorded the new one", metadata: ["path": "\(app.path)"])
            return .identityGroupProgram(gid: record.gid)
        }
        if running.links == 0 && executable.path == app.path {
            return .identityGroupProgram(gid: record.gid)
        }
        return .refused(reason: "runs setgid to the identity group of \(app.path) (gid \(record.gid)) from another file")
    }

    /// A path-mode program is the registered one when it runs in the daemon's namespaces, its running file
    /// is the file at the registered path as the daemon sees it (or was, before being replaced while it
    /// ran), and, when the entry pins a hash, the running file's hash is computed for the comparison.
    private func pathModeKind(
        app: RegisteredApp, peer: PeerCredentials, executable: borrowing RunningExecutable, isAbandoned: () -> Bool
    ) throws(IdentificationError) -> PeerIdentity.Kind {
        guard let reference, let namespaces = ProcessNamespaces.of(pid: String(peer.pid), procRoot: procRoot) else {
            return .refused(reason: "matches the path-mode registration of \(app.path), but its namespaces cannot be compared with the daemon's")
        }
        guard namespaces == reference else {
            return .refused(
                reason:
                    "matches the path-mode registration of \(app.path) from another user or mount namespace (\(namespaces.user), \(namespaces.mount)), where the path proves nothing"
            )
        }
        let running = executable.file
        if running.links > 0 {
            guard let current = FileIdentity.at(path: app.path), current.isSameFile(as: running) else {
                return .refused(reason: "shows the path of \(app.path), but does not run the file at that path (a bind mount?)")
            }
        }
        guard app.pinnedSHA256 != nil else { return .pathModeProgram(path: app.path, sha256: nil) }
        do {
            let hash = try hasher.sha256(of: executable.descriptor, file: running, isAbandoned: isAbandoned)
            return .pathModeProgram(path: app.path, sha256: hash)
        } catch .abandoned {
            throw .unidentifiablePeer(ExecutableHasher.Refusal.abandoned.description)
        } catch {
            return .refused(reason: "matches the pinned registration of \(app.path), but \(error)")
        }
    }
}
