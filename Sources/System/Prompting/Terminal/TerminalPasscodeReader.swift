import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Reads a passcode on the controlling terminal (`/dev/tty`) with echo off.
///
/// The terminal's settings are restored on every path, and input typed but not sent is discarded with
/// them, so a passcode cut short by a time-out is not left for the next reader.
public struct TerminalPasscodeReader: Sendable {
    /// Why no passcode was read.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// `/dev/tty` cannot be opened or set up; the reason is the system's.
        case unusable(String)
        /// The input ended (Control-D) before a line was typed.
        case endOfInput
        /// The line is longer than `limit` bytes.
        case tooLong(limit: Int)
        /// The time to answer ran out.
        case timedOut

        /// One line for people.
        public var description: String {
            switch self {
            case .unusable(let reason): "cannot read from the terminal: \(reason)"
            case .endOfInput: "the terminal's input ended"
            case .tooLong(let limit): "the passcode is longer than \(limit) bytes"
            case .timedOut: "no passcode was typed in time"
            }
        }
    }

    /// Whether the process has a controlling terminal to ask on: `/dev/tty` opens and is a terminal.
    public static var isAvailable: Bool {
        let probe = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        return isatty(probe) == 1
    }

    /// How lines are read.
    public let lineReader: SecretLineReader

    /// A reader of passcodes of at most `limit` bytes.
    public init(limit: Int = SecretLineReader.standardLimit) {
        lineReader = SecretLineReader(limit: limit)
    }

    /// Writes `notice` then `prompt` (as they are: the caller ends the prompt with a space) to the terminal,
    /// and reads one line without echo; the newline the person types is still echoed. Past `timeout`
    /// (none when nil), `Failure.timedOut`.
    public func read(prompt: String, notice: String = "", timeout: Duration? = nil) throws(Failure) -> SecretBytes {
        let terminal = open("/dev/tty", O_RDWR | O_CLOEXEC | O_NOCTTY)
        guard terminal >= 0 else { throw .unusable(Self.systemReason()) }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { throw .unusable(Self.systemReason()) }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        Self.write(notice + prompt, to: terminal)
        guard tcsetattr(terminal, TCSAFLUSH, &silent) == 0 else { throw .unusable(Self.systemReason()) }
        defer { _ = tcsetattr(terminal, TCSAFLUSH, &saved) }
        let line: SecretBytes?
        do {
            line = try lineReader.readLine(from: terminal, timeout: timeout)
        } catch {
            switch error {
            case .tooLong(let limit):
                throw .tooLong(limit: limit)
            case .timedOut:
                // The person's half-typed line stays on the screen's current line; end it.
                Self.write("\n", to: terminal)
                throw .timedOut
            }
        }
        guard let line else { throw .endOfInput }
        return line
    }

    private static func write(_ text: String, to terminal: Int32) {
        _ = DescriptorIO.writeAll(Array(text.utf8), to: terminal, until: .after(.seconds(5)))
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}
