import Foundation
import ProgramIdentity
import KeychainClient
import SSHAgent

/// What `coffer ssh-agent limit` and `limits` share: the agent's keys in the keychain, a key named as the person
/// names it, and the programs a key's access groups stand for.
struct AgentKeyLimits {
    let store: KeychainAgentStore
    let programs: AgentProgramGroups

    /// Over the keychain `coffer` uses (`command` names the command in a passcode question).
    init(command: String) throws {
        let client = try ItemCommandSupport.client(command: command)
        store = KeychainAgentStore(
            client: client, ownerAccess: OwnerProofInput.access(client, reason: "change which programs may use your SSH keys", command: command))
        programs = AgentProgramGroups(client: client)
    }

    /// The agent's keys.
    func keys() throws -> [AgentKey] {
        do {
            return try store.keys()
        } catch {
            throw CLIFailure("ssh-agent: \(error.reason)")
        }
    }

    /// The one key `name` names: its fingerprint as `ssh-add -l` prints it (`SHA256:…`), or its comment.
    func key(named name: String) throws -> AgentKey {
        let keys = try keys()
        if let key = keys.first(where: { $0.fingerprint == name }) { return key }
        let commented = keys.filter { $0.comment == name }
        guard commented.count <= 1 else {
            throw CLIFailure("ssh-agent: \(commented.count) keys have the comment \(name); name one by its fingerprint (ssh-add -l)")
        }
        guard let key = commented.first else { throw CLIFailure("ssh-agent: no key of the agent has the fingerprint or comment \(name)") }
        return key
    }

    /// How `coffer ssh-agent limits` shows who may use `key`: `every program`, or each allowed group with the
    /// program it stands for when that is known (a registered program, or an executable on `PATH` whose unregistered
    /// group it is).
    func allowed(_ key: AgentKey) -> String {
        guard let groups = key.tag.allowedGroups else { return "every program" }
        let candidates = UnregisteredPrograms.candidatePaths(environment: ProcessInfo.processInfo.environment)
        return groups.map { group in
            programs.program(of: group, amongPaths: candidates).map { "\($0) (\(group))" } ?? group
        }.joined(separator: ", ")
    }
}
