import CofferDiagnostics
import Foundation
import KeychainClient
import KeychainOperations
import Logging
import ProgramIdentity

#if canImport(Glibc)
import Glibc
#endif

/// Who each client of the bus is, decided once per client connection (its unique name) with cofferd's
/// identity rules, and forgotten when the client leaves the bus. Confined to the bus thread.
///
/// The bus gives what the kernel captured when the client connected: its uid, its pid and its groups
/// (effective and supplementary in one list). A group of that list that is a registered program's identity
/// group stands for the effective group `SO_PEERCRED` gives cofferd (identity groups have no members, so a
/// process holds one only as its effective group, through the setgid file); the identifier then checks the
/// running file and the setgid bit as cofferd does. Without a pidfd from the bus, a PID reused between the
/// client's exit and its identification is caught only by the process's start time, read when the client is
/// first seen.
final class CallerDirectory {
    private let bus: OpaquePointer
    private let client: any KeychainClient
    private let isolation: SecretServiceIsolation
    private let identifier = PeerIdentifier()
    private let uid = getuid()
    private var known: [String: SecretServiceCaller] = [:]
    private let logger = DiagnosticsLevel.logger(label: "coffer.secret-service.callers")

    init(bus: OpaquePointer, client: any KeychainClient, isolation: SecretServiceIsolation) {
        self.bus = bus
        self.client = client
        self.isolation = isolation
    }

    /// The client whose unique bus name is `name`.
    func caller(_ name: String) -> SecretServiceCaller {
        if let caller = known[name] { return caller }
        let caller = identify(name)
        known[name] = caller
        return caller
    }

    /// Forgets a client that left the bus.
    func forget(_ name: String) {
        known[name] = nil
    }

    private func identify(_ name: String) -> SecretServiceCaller {
        let seesEverything = isolation == .shared
        guard let credentials = BusCredentials.of(client: name, on: bus) else {
            logger.notice("a client the bus gives no credentials for is treated as able to do nothing", metadata: ["name": "\(name)"])
            return SecretServiceCaller(identity: nil, accessGroups: [], seesEverything: false)
        }
        guard credentials.uid == uid else {
            logger.warning("refused a client of another user", metadata: ["name": "\(name)", "uid": "\(credentials.uid)"])
            return SecretServiceCaller(identity: nil, accessGroups: [], seesEverything: false)
        }
        let programs = ListedPrograms((try? client.sendBlocking(.appsList).appsResult()) ?? [])
        let registry = programs.snapshot
        let identityGroup = credentials.groups.first { registry.entry(identityGroup: $0) != nil }
        let peer = PeerCredentials(
            pid: credentials.pid, uid: credentials.uid, gid: identityGroup ?? credentials.groups.first ?? 0, pidfd: -1,
            securityLabel: credentials.securityLabel)
        do {
            let identity = try identifier.identify(peer: peer, registry: programs, isAbandoned: { false })
            let context = registry.caller(for: identity)
            let groups: [String] = if case .list(let groups) = context.accessGroups { groups } else { [] }
            return SecretServiceCaller(identity: identity, accessGroups: groups, seesEverything: seesEverything && !groups.isEmpty)
        } catch {
            logger.notice("a client that could not be identified is treated as able to do nothing", metadata: ["name": "\(name)", "reason": "\(error)"])
            return SecretServiceCaller(identity: nil, accessGroups: [], seesEverything: false)
        }
    }
}
