import Foundation
import KeychainModel

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
        case mismatch
        case terminal(String)

        var description: String {
            switch self {
            case .endOfInput(let what): "no \(what) on standard input"
            case .tooLong(let what, let limit): "the \(what) is longer than \(limit) bytes; nothing was changed"
            case .mismatch: "the two passcodes do not match"
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
        guard first.isEqual(to: second) else { throw Failure.mismatch }
        return first
    }

    /// Reads a passcode from the controlling terminal without echo; nil when there is no terminal.
    static func fromTerminal(_ prompt: String) throws -> SecretBytes? {
        guard terminalIsAvailable else { return nil }
        return try PasscodeInput().readFromTerminal(prompt: prompt, what: prompt.lowercased())
    }

    /// Whether the process has a terminal (`/dev/tty`) to ask on.
    static var terminalIsAvailable: Bool {
        let probe = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return isatty(probe) == 1
    }

    private func readOne(prompt: String, what: String) throws -> SecretBytes {
        if interactive { return try readFromTerminal(prompt: prompt, what: what) }
        guard let line = try Self.readLine(from: STDIN_FILENO, what: what) else { throw Failure.endOfInput(what: what) }
        return line
    }

    private func readFromTerminal(prompt: String, what: String) throws -> SecretBytes {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard terminal >= 0 else { throw Failure.terminal(String(cString: strerror(errno))) }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { throw Failure.terminal(String(cString: strerror(errno))) }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        _ = "\(prompt): ".withCString { write(terminal, $0, strlen($0)) }
        guard tcsetattr(terminal, TCSAFLUSH, &silent) == 0 else { throw Failure.terminal(String(cString: strerror(errno))) }
        defer { _ = tcsetattr(terminal, TCSAFLUSH, &saved) }
        guard let line = try Self.readLine(from: terminal, what: what) else { throw Failure.endOfInput(what: what) }
        return line
    }

    /// The longest passcode line read, in bytes.
    static let lineLimit = 4096

    /// Reads bytes up to a newline (not included; a trailing carriage return is dropped too),
    /// one byte at a time so nothing after the line is consumed. Nil at end of input with no bytes.
    /// A line longer than `limit` bytes is refused, never cut short: a passcode set from its first
    /// `limit` bytes would not be the one the user typed.
    static func readLine(from descriptor: Int32, limit: Int = lineLimit, what: String) throws(Failure) -> SecretBytes? {
        var sawAnything = false
        var tooLong = false
        let line = SecretBytes(capacity: limit + 1) { buffer in
            var count = 0
            var byte: UInt8 = 0
            defer { byte = 0 }
            while true {
                let result = read(descriptor, &byte, 1)
                if result < 0, errno == EINTR { continue }
                if result <= 0 { break }
                sawAnything = true
                if byte == UInt8(ascii: "\n") { break }
                // One byte past the limit is kept, for a carriage return before the newline.
                guard count <= limit else {
                    tooLong = true
                    break
                }
                buffer[count] = byte
                count += 1
            }
            if count > 0, buffer[count - 1] == UInt8(ascii: "\r") { count -= 1 }
            if count > limit { tooLong = true }
            return tooLong ? 0 : count
        }
        guard !tooLong else { throw .tooLong(what: what, limit: limit) }
        return sawAnything ? line : nil
    }
}
