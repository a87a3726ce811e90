import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A pinentry played by a shell script in a temporary folder: it greets, records each command it is sent,
/// answers `OK` to each, and does what the test says on `GETPIN`. It writes its process ID to a file, so
/// tests can check it was reaped.
struct ScriptedPinentry {
    /// The folder the script and its records live in; removed by ``remove()``.
    let folder: URL

    /// What the script does when it is asked for the passcode.
    enum GetPin {
        /// Answers with this `D` line payload (already Assuan-escaped).
        case answer(String)
        /// Answers as pinentry does when the person presses Cancel.
        case cancel
        /// Answers as pinentry does when its own `SETTIMEOUT` runs out.
        case reportTimeout
        /// Never answers: becomes a long sleep (same process ID) that only a signal ends.
        case neverAnswer
        /// Exits without a word.
        case exit
    }

    /// The script's path.
    var path: String { folder.appendingPathComponent("pinentry").path }
    private var pidFile: String { folder.appendingPathComponent("pid").path }
    private var commandLog: String { folder.appendingPathComponent("commands").path }

    /// Writes a script that greets and then follows `getPin`; `beforeGreeting` runs first (shell lines).
    init(getPin: GetPin, beforeGreeting: String = "") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-prompting-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let action: String
        switch getPin {
        case .answer(let payload): action = "printf 'D %s\\nOK\\n' '\(payload)'"
        case .cancel: action = "echo 'ERR 83886179 Operation cancelled <Pinentry>'"
        case .reportTimeout: action = "echo 'ERR 83886142 Timeout <Pinentry>'"
        case .neverAnswer: action = "exec sleep 60"
        case .exit: action = "exit 0"
        }
        let script = """
            #!/bin/sh
            echo $$ > '\(pidFile)'
            \(beforeGreeting)
            echo 'OK Pleased to meet you'
            while IFS= read -r line; do
              printf '%s\\n' "$line" >> '\(commandLog)'
              case "$line" in
                GETPIN) \(action);;
                BYE) echo OK; exit 0;;
                *) echo OK;;
              esac
            done
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        _ = chmod(path, 0o755)
    }

    /// Writes an executable script named `name` with `body` into the folder, and returns its path.
    func addProgram(named name: String, body: String = "#!/bin/sh\nexit 0\n") throws -> String {
        let program = folder.appendingPathComponent(name).path
        try body.write(toFile: program, atomically: true, encoding: .utf8)
        _ = chmod(program, 0o755)
        return program
    }

    /// The commands the script was sent, one per line.
    var commands: [String] {
        ((try? String(contentsOfFile: commandLog, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// The script's process ID, once it has started.
    var pid: pid_t? {
        (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Whether the process that ran the script is gone for good: not a child of this process any more
    /// (reaped, not a zombie), and nothing under /proc.
    var wasReaped: Bool {
        guard let pid else { return false }
        var status: Int32 = 0
        let waited = waitpid(pid, &status, WNOHANG)
        return waited == -1 && errno == ECHILD && !FileManager.default.fileExists(atPath: "/proc/\(pid)")
    }

    /// Removes the folder.
    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}
