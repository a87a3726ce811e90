import ArgumentParser
import Foundation
import SSHAgent

#if canImport(Glibc)
import Glibc
#endif

/// `ssh-agent`: an SSH agent whose keys are keychain key items, on a Unix socket, with `ssh-agent`'s command line
/// where scripts rely on it (`-a`, `-D`, `-d`, `-s`, `-c`, `-k`, `-t`).
struct SSHAgentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ssh-agent",
        abstract: "Serve the keychain's SSH keys to ssh, ssh-add and ssh-keygen (the SSH agent protocol).",
        discussion: """
            Prints SSH_AUTH_SOCK (and SSH_AGENT_PID) in shell syntax, for eval "$(coffer ssh-agent)". Keys added \
            with ssh-add are stored in the keychain and survive restarts; keys made with coffer create-key --ssh \
            (P-256, or Ed25519 with -t ed25519) never leave it. Ed25519, ECDSA (P-256, P-384, P-521) and RSA \
            (rsa-sha2-256 and rsa-sha2-512) keys are served; DSA keys are refused. Started by systemd with a \
            socket (LISTEN_FDS), it serves that socket. A key can be limited to programs (ssh-agent limit).
            """,
        subcommands: [SSHAgentLimitCommand.self, SSHAgentLimitsCommand.self])

    @Option(
        name: .customShort("a"), help: ArgumentHelp("Bind the agent to this Unix socket path (default: a new private folder under TMPDIR).", valueName: "path"))
    var socketPath: String?
    @Flag(name: .customShort("D"), help: "Stay in the foreground.")
    var foreground = false
    @Flag(name: .customShort("d"), help: "Debug mode, as ssh-agent's: stay in the foreground (COFFER_LOG=debug for the log).")
    var debug = false
    @Flag(name: .customShort("s"), help: "Print Bourne shell commands.")
    var bourne = false
    @Flag(name: .customShort("c"), help: "Print C shell commands.")
    var cShell = false
    @Flag(name: .customShort("k"), help: "Stop the agent SSH_AGENT_PID names.")
    var kill = false
    @Option(name: .customShort("t"), help: ArgumentHelp("The lifetime, in seconds, of keys added without one.", valueName: "seconds"))
    var lifetime: UInt32?
    @Flag(name: .customLong("detached"), help: .hidden)
    var detached = false
    @Flag(name: .customLong("remove-folder"), help: .hidden)
    var removeFolder = false

    func validate() throws {
        if bourne && cShell { throw ValidationError("-s and -c cannot both be given") }
    }

    func run() throws {
        let shell = ShellSyntax(bourne: bourne, cShell: cShell)
        if kill {
            try AgentProcess.stop(shell: shell)
            return
        }
        if let listener = AgentProcess.systemdSocket(ProcessInfo.processInfo.environment) {
            try AgentProcess.serveActivated(on: listener, lifetime: lifetime)
        }
        let location = try AgentSocketLocation(path: socketPath, ownsFolder: removeFolder)
        if foreground || debug || detached {
            try AgentProcess.serve(at: location, lifetime: lifetime, announce: foreground || debug ? shell : nil)
        } else {
            try AgentProcess.startInBackground(at: location, lifetime: lifetime, shell: shell)
        }
    }
}
