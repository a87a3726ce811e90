import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where the agent's socket is: the `-a` path, or `agent.PID` in a new folder `coffer-ssh-XXXXXXXX` of mode 0700
/// under `TMPDIR` (or `/tmp`), which the agent removes when it stops.
struct AgentSocketLocation {
    /// The socket's path.
    let path: String
    /// The folder the agent made for it, if it did.
    let madeFolder: String?

    /// The `-a` path (its folder removed at the end when `ownsFolder`: the agent's own background copy, which
    /// its first process made the folder for), or a new private folder's.
    init(path: String?, ownsFolder: Bool = false) throws {
        if let path {
            guard !path.isEmpty else { throw CLIFailure("ssh-agent: an empty socket path") }
            self.path = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
            madeFolder = ownsFolder ? (self.path as NSString).deletingLastPathComponent : nil
            return
        }
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/coffer-ssh-XXXXXXXX".utf8CString)
        guard let folder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CLIFailure("ssh-agent: cannot make a private folder under \(base) (errno \(errno))")
        }
        let made = String(cString: folder)
        guard chmod(made, 0o700) == 0 else { throw CLIFailure("ssh-agent: cannot make \(made) private") }
        madeFolder = made
        self.path = "\(made)/agent.\(getpid())"
    }

    /// Removes the folder the agent made, with whatever socket it holds, after a start that failed; a path given
    /// with `-a` is left alone (a failed bind there may be another agent's socket).
    func discard() {
        if madeFolder != nil { remove() }
    }

    /// Removes the socket, and the folder when the agent made it.
    func remove() {
        unlink(path)
        if let madeFolder { rmdir(madeFolder) }
    }
}
