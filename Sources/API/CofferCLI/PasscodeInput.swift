import Foundation
import KeychainModel
import Prompting

#if canImport(Glibc)
import Glibc
#endif

/// Reads passcodes: from standard input, one per line, when it is not a terminal (scripts, tests);
/// otherwise from the terminal without echo, asking for a new passcode twice.
struct PasscodeInput {
    /// Why a passcode could not be read.
    enum Failure: Error, CustomStringConvertible {
        case endOfInput(what: String)
        case tooLong(what: String, limit: Int)
        case mismatch(what: String)
        case terminal(String)

        var description: String {
            switch self {
            case .endOfInput(let what): "no \(what) on standard input"
            case .tooLong(let what, let limit): "the \(what) is longer than \(limit) bytes; nothing was changed"
            case .mismatch(let what): "the two \(what)s do not match"
            case .terminal(let reason): "cannot read from the terminal: \(reason)"
            }
        }
    }

    private let interactive = isatty(STDIN_FILENO) == 1

    /// Reads an existing passcode, prompting with `prompt` on a terminal.
    func existing(_ prompt: String) throws -> SecretBytes {
        try readOne(prompt: prompt, what: prompt.lowercased())
    }

    /// Reads a new passcode; on a terminal it is asked twice and both must match.
    func new(_ prompt: String) throws -> SecretBytes {
        let first = try readOne(prompt: prompt, what: prompt.lowercased())
        guard interactive else { return first }
        let second = try readOne(prompt: "Retype \(prompt.lowercased())", what: prompt.lowercased())
        guard first.isEqual(to: second) else { throw Failure.mismatch(what: prompt.lowercased()) }
        return first
    }

    /// Reads a passcode from the controlling terminal without echo; nil when there is no terminal.
    static func fromTerminal(_ prompt: String) throws -> SecretBytes? {
        guard terminalIsAvailable else { return nil }
        return try PasscodeInput().readFromTerminal(prompt: prompt, what: prompt.lowercased())
    }

    /// Whether the process has a terminal (`/dev/tty`) to ask on.
    static var terminalIsAvailable: Bool { TerminalPasscodeReader.isAvailable }

    private func readOne(prompt: String, what: String) throws -> SecretBytes {
        if interactive { return try readFromTerminal(prompt: prompt, what: what) }
        guard let line = try Self.readLine(from: STDIN_FILENO, what: what) else { throw Failure.endOfInput(what: what) }
        return line
    }

    private func readFromTerminal(prompt: String, what: String) throws -> SecretBytes {
        do {
            return try TerminalPasscodeReader(limit: Self.lineLimit).read(prompt: "\(prompt): ")
        } catch .unusable(let reason) {
            throw Failure.terminal(reason)
        } catch .endOfInput, .timedOut {
            throw Failure.endOfInput(what: what)
        } catch .tooLong(let limit) {
            throw Failure.tooLong(what: what, limit: limit)
        }
    }

    /// The longest passcode line read, in bytes.
    static let lineLimit = SecretLineReader.standardLimit

    /// Reads bytes up to a newline (see `SecretLineReader`). Nil at end of input with no bytes. A line
    /// longer than `limit` bytes is refused, never cut short.
    static func readLine(from descriptor: Int32, limit: Int = lineLimit, what: String) throws(Failure) -> SecretBytes? {
        do {
            return try SecretLineReader(limit: limit).readLine(from: descriptor)
        } catch {
            switch error {
            case .tooLong(let limit): throw .tooLong(what: what, limit: limit)
            // Without a timeout the reader never times out; were it to, there is no line.
            case .timedOut: return nil
            }
        }
    }
}
