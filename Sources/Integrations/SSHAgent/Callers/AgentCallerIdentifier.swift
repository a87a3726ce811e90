import Foundation
import KeychainClient
import KeychainOperations
import Logging
import ProgramIdentity

/// Identifies the caller of each connection as cofferd identifies its callers: the kernel's credentials read right
/// after `accept` (``PeerCredentials/of(socket:)``), cofferd's identity rules (``PeerIdentifier``) over the user's
/// registry as the keychain lists it, and the access groups the registry gives (``AppRegistry/caller(for:)``).
///
/// It blocks its thread on `/proc` and on the keychain, so it is called from a connection's own thread.
final class AgentCallerIdentifier: Sendable {
    private let client: any KeychainClient
    private let identifier = PeerIdentifier()
    private let logger: Logger

    /// Identifies callers with the registry `client` lists.
    init(client: any KeychainClient, logger: Logger = Logger(label: "coffer.ssh-agent")) {
        self.client = client
        self.logger = logger
    }

    /// The caller behind `peer` (read from `connection` right after `accept`); a caller that cannot be identified (it
    /// exited, its PID was reused, its executable cannot be read) gets no access group.
    func caller(of peer: PeerCredentials, connection: Int32) -> AgentCaller {
        let programs = ListedPrograms((try? client.sendBlocking(.appsList).appsResult()) ?? [])
        do {
            let identity = try identifier.identify(peer: peer, registry: programs, isAbandoned: { SocketHangup.hasHungUp(connection) })
            let groups: [String] =
                if case .list(let groups) = programs.snapshot.caller(for: identity).accessGroups { groups } else { [] }
            return AgentCaller(accessGroups: groups, logDescription: identity.logDescription)
        } catch {
            logger.notice("a caller that could not be identified is served only keys without a program limit: \(error)")
            return AgentCaller(accessGroups: [], logDescription: "pid \(peer.pid): unidentified")
        }
    }
}
