import ArgumentParser
import KeychainModel
import Foundation
import SSHAgent

/// `ssh-agent limit`: limits an agent key to programs (their access groups, stored in the key's tag), or clears the
/// limit.
struct SSHAgentLimitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limit",
        abstract: "Let only some programs list and use an SSH key of the agent (or, with --clear, every program again).",
        discussion: """
            The key is named by its fingerprint as ssh-add -l prints it (SHA256:…) or by its comment. Each --program \
            PATH (symbolic links resolved) adds its access groups: a program registered with coffer apps gives its \
            app's groups, any other program the group of its path. The agent then lists and signs with the key only \
            for a caller with one of those groups, identified as cofferd identifies its callers.
            """)

    @Argument(help: "The key: its SHA256 fingerprint (as ssh-add -l prints it) or its comment.")
    var key: String
    @Option(name: .customLong("program"), help: "A program that may use the key (repeat for more).")
    var programs: [String] = []
    @Flag(name: .customLong("clear"), help: "Remove the limit: every program of the user may use the key.")
    var clear = false

    func validate() throws {
        if clear == !programs.isEmpty { throw ValidationError("give either --program PATH (one or more) or --clear") }
    }

    func run() throws {
        let limits = try AgentKeyLimits(command: "ssh-agent limit")
        let found = try limits.key(named: key)
        var groups: [String] = []
        for program in programs {
            guard let resolved = limits.programs.groups(ofProgramAt: program) else {
                throw CLIFailure("ssh-agent: no program at \(program)")
            }
            for group in resolved.groups where !groups.contains(group) { groups.append(group) }
        }
        let changed: AgentKey
        do {
            changed = try limits.store.setAllowedGroups(clear ? nil : groups, of: found)
        } catch {
            throw CLIFailure("ssh-agent: \(error.reason)")
        }
        print("\(changed.fingerprint) \(ControlCharacterEscaping.escaped(changed.comment)): \(limits.allowed(changed))")
    }
}
