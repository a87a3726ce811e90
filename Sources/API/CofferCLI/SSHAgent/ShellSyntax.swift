import Foundation

/// How `coffer ssh-agent` prints its variables: Bourne shell (`-s`) or C shell (`-c`); by default, C shell when
/// `SHELL` ends in `csh`, as `ssh-agent` decides.
struct ShellSyntax {
    /// Whether the lines are for a C shell.
    let isCShell: Bool

    init(bourne: Bool, cShell: Bool) {
        if bourne || cShell {
            isCShell = cShell
        } else {
            isCShell = ProcessInfo.processInfo.environment["SHELL"]?.hasSuffix("csh") == true
        }
    }

    /// The lines that set `SSH_AUTH_SOCK` and, for an agent in the background, `SSH_AGENT_PID` (in the foreground,
    /// `-D`, `ssh-agent` prints only the socket: the agent is the shell's own child).
    func setting(socket: String, pid: pid_t, background: Bool) -> String {
        let quoted = Self.quoted(socket)
        var lines = isCShell ? "setenv SSH_AUTH_SOCK \(quoted);\n" : "SSH_AUTH_SOCK=\(quoted); export SSH_AUTH_SOCK;\n"
        if background {
            lines += isCShell ? "setenv SSH_AGENT_PID \(pid);\n" : "SSH_AGENT_PID=\(pid); export SSH_AGENT_PID;\n"
        }
        return lines + "echo Agent pid \(pid);\n"
    }

    /// The lines that unset them after `-k`.
    func unsetting(pid: pid_t) -> String {
        if isCShell { return "unsetenv SSH_AUTH_SOCK;\nunsetenv SSH_AGENT_PID;\necho Agent pid \(pid) killed;\n" }
        return "unset SSH_AUTH_SOCK;\nunset SSH_AGENT_PID;\necho Agent pid \(pid) killed;\n"
    }

    /// `text` as one shell word: unchanged when it holds only safe characters, else in single quotes.
    static func quoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:,@%")
        if !text.isEmpty, text.allSatisfy({ safe.contains($0) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
