import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Asks for a passcode through a pinentry program (GnuPG's dialog: `pinentry-gnome3`, `pinentry-curses`…),
/// speaking its Assuan protocol on the program's standard input and output.
///
/// The passcode arrives in a `D` line, percent-escaped; it is decoded straight into ``SecretBytes`` and the
/// bytes read are zeroized, so it never becomes a Swift string.
struct Pinentry {
    /// Why pinentry gave no passcode.
    enum Failure: Error, CustomStringConvertible {
        /// The person pressed Cancel or closed the dialog.
        case cancelled
        /// The program could not be started or broke the protocol.
        case failed(String)

        var description: String {
            switch self {
            case .cancelled: "the person cancelled"
            case .failed(let reason): "pinentry failed: \(reason)"
            }
        }
    }

    /// The pinentry program to run.
    let program: String

    /// Shows `description` (and `error`, when asking again) and returns what the person typed.
    func askPasscode(description: String, error: String?) throws(Failure) -> SecretBytes {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        let toProgram = Pipe()
        let fromProgram = Pipe()
        process.standardInput = toProgram
        process.standardOutput = fromProgram
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .failed("cannot run \(program): \(error.localizedDescription)")
        }
        let session = AssuanSession(
            input: fromProgram.fileHandleForReading.fileDescriptor, output: toProgram.fileHandleForWriting.fileDescriptor)
        defer {
            session.send("BYE")
            try? toProgram.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        try session.expectOK()
        if let tty = ttyName() { try session.command("OPTION ttyname=\(tty)") }
        try session.command("SETTITLE Coffer")
        try session.command("SETDESC \(AssuanSession.escape(description))")
        try session.command("SETPROMPT Passcode:")
        if let error { try session.command("SETERROR \(AssuanSession.escape(error))") }
        return try session.getPin()
    }

    /// The terminal the agent runs on, for curses pinentries.
    private func ttyName() -> String? {
        guard isatty(STDIN_FILENO) == 1, let name = ttyname(STDIN_FILENO) else { return nil }
        return String(cString: name)
    }

    /// The program pinentry runs as when none is named: `pinentry` found on `PATH`.
    static func onPath(environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/pinentry"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
