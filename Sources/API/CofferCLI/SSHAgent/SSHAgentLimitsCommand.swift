import ArgumentParser
import KeychainModel
import SSHAgent

/// `ssh-agent limits`: each agent key with the programs that may use it.
struct SSHAgentLimitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limits",
        abstract: "List the agent's SSH keys with the programs that may use them.",
        discussion: """
            One line per key: its fingerprint, its comment, and "every program" or the access groups it is limited \
            to, each with the program it stands for when that is known (a registered program, or a file on PATH).
            """)

    func run() throws {
        let limits = try AgentKeyLimits(command: "ssh-agent limits")
        for key in try limits.keys().sorted(by: { $0.fingerprint < $1.fingerprint }) {
            print("\(key.fingerprint) \(ControlCharacterEscaping.escaped(key.comment)): \(limits.allowed(key))")
        }
    }
}
