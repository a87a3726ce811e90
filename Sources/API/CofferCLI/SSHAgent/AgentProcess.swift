import Foundation
import KeychainClient
import SSHAgent

#if canImport(Glibc)
import Glibc
#endif

/// Running `coffer ssh-agent`: serving in this process, starting a background copy, or stopping one.
enum AgentProcess {
    /// The signals that stop the agent (its socket is removed first).
    private static let stopSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The listening socket systemd passed (socket activation: `LISTEN_PID` is this process, `LISTEN_FDS` at least
    /// 1), if any: descriptor 3.
    static func systemdSocket(_ environment: [String: String]) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap(pid_t.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        return 3
    }

    /// Serves on a socket systemd passed until a stop signal; the socket is systemd's, so it is left in place.
    static func serveActivated(on listener: Int32, lifetime: UInt32?) throws -> Never {
        let client = try ItemCommandSupport.client(command: "ssh-agent")
        let signals = blockStopSignals()
        let service = SSHAgentService(
            store: KeychainAgentStore(client: client, ownerAccess: ownerAccess(client)), defaultLifetime: lifetime,
            confirmation: .standard(environment: ProcessInfo.processInfo.environment))
        AgentServer(inheritedListener: listener, service: service).start()
        waitForStop(signals)
        exit(0)
    }

    /// How the agent proves the owner when the system daemon asks (its keys are the owner's): on its terminal when it
    /// has one, else through the prompt agent.
    private static func ownerAccess(_ client: any KeychainClient) -> AgentOwnerAccess {
        OwnerProofInput.access(client, reason: "serve your SSH keys to ssh", command: "ssh-agent")
    }

    /// Blocks the stop signals in this thread, before any other starts, so every thread inherits the mask and only
    /// ``waitForStop(_:)`` sees them; returns the set.
    private static func blockStopSignals() -> sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in stopSignals { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)
        return signals
    }

    /// Waits for one of the stop signals.
    private static func waitForStop(_ signals: sigset_t) {
        var signals = signals
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
    }

    /// Serves at `location` until a stop signal; prints the shell lines first when `announce` is given (`-D`).
    static func serve(at location: AgentSocketLocation, lifetime: UInt32?, announce: ShellSyntax?) throws -> Never {
        // On a terminal, a keychain with a passcode is unlocked first, as for every command (an embedded keychain's
        // lock state is this process's own; cofferd's is shared). Asked before the stop signals are blocked, so
        // Control-C still ends the question.
        let client: any KeychainClient
        do {
            client = try ItemCommandSupport.client(command: "ssh-agent")
        } catch {
            location.discard()
            throw error
        }
        let signals = blockStopSignals()

        let service = SSHAgentService(
            store: KeychainAgentStore(client: client, ownerAccess: ownerAccess(client)), defaultLifetime: lifetime,
            confirmation: .standard(environment: ProcessInfo.processInfo.environment))
        let server: AgentServer
        do {
            server = try AgentServer(path: location.path, service: service)
        } catch {
            location.discard()
            throw CLIFailure("ssh-agent: \(error.reason)")
        }
        server.start()
        if let announce {
            FileHandle.standardOutput.write(Data(announce.setting(socket: location.path, pid: getpid(), background: false).utf8))
        }
        waitForStop(signals)
        location.remove()
        exit(0)
    }

    /// Starts a copy of this program that serves at `location` in a session of its own, waits until its socket is
    /// there, and prints the shell lines.
    static func startInBackground(at location: AgentSocketLocation, lifetime: UInt32?, shell: ShellSyntax) throws {
        var arguments = ["coffer", "ssh-agent", "-a", location.path, "--detached"]
        if location.madeFolder != nil { arguments.append("--remove-folder") }
        if let lifetime { arguments += ["-t", String(lifetime)] }
        let child: pid_t
        do {
            child = try DetachedProcess.spawn("/proc/self/exe", arguments, what: "ssh-agent: cannot start the agent")
        } catch {
            location.discard()
            throw error
        }
        for _ in 0..<1000 {
            var status: Int32 = 0
            if waitpid(child, &status, WNOHANG) == child {
                location.discard()
                throw CLIFailure("ssh-agent: the agent stopped at once (run it with -D to see why)")
            }
            if access(location.path, F_OK) == 0 {
                FileHandle.standardOutput.write(Data(shell.setting(socket: location.path, pid: child, background: true).utf8))
                return
            }
            usleep(10_000)
        }
        Glibc.kill(child, SIGTERM)
        throw CLIFailure("ssh-agent: the agent did not open its socket within 10 s")
    }

    /// `-k`: stops the agent `SSH_AGENT_PID` names and prints the lines that unset the variables.
    static func stop(shell: ShellSyntax) throws {
        guard let text = ProcessInfo.processInfo.environment["SSH_AGENT_PID"], let pid = pid_t(text), pid > 0 else {
            throw CLIFailure("ssh-agent: SSH_AGENT_PID is not set, so no agent is known to stop")
        }
        guard Glibc.kill(pid, SIGTERM) == 0 else { throw CLIFailure("ssh-agent: cannot stop process \(pid) (errno \(errno))") }
        FileHandle.standardOutput.write(Data(shell.unsetting(pid: pid).utf8))
    }
}
