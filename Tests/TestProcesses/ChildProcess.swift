import CChildProcess
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program a test starts: a daemon, the CLI, an attacker, a helper.
///
/// Foundation's `Process` notices a child's exit through a socket the child inherits, so a grandchild that
/// keeps it (a pinentry left sleeping), or a child another test spawns at the same moment, can hold
/// `waitUntilExit()` forever; its pipes leak the same way. A `ChildProcess` instead:
/// - gives the child descriptors 0–2 only: every other one is closed at spawn, whatever other threads
///   open meanwhile, and the parent's ends of its pipes are close-on-exec;
/// - starts it in a process group of its own, with an empty signal mask and default handlers (the test
///   runner blocks SIGTERM, which children would otherwise inherit);
/// - waits with a deadline, and kills the whole group when the deadline passes or the object goes away,
///   so nothing a test started outlives it.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe the test writes with ``write(_:)`` and ends with ``closeInput()``.
        case pipe
        /// The file at this path.
        case file(String)
    }

    /// Where the child's standard output or standard error goes.
    public enum Output: Sendable {
        /// `/dev/null`.
        case null
        /// A pipe the test reads (``readToEnd(timeout:)``, ``nextOutputLine(timeout:)``).
        case pipe
        /// For standard error: the same pipe or file as standard output.
        case sameAsOutput
    }

    /// How the child ended.
    public struct Termination: Equatable, Sendable, CustomStringConvertible {
        /// The exit status, or the number of the signal that ended it (as `Process.terminationStatus`).
        public let status: Int32
        /// Whether a signal ended it.
        public let signalled: Bool

        /// An exit with `status`, or (when `signalled`) a death by signal `status`.
        public init(status: Int32, signalled: Bool) {
            self.status = status
            self.signalled = signalled
        }

        /// Exited with status 0.
        public var succeeded: Bool { status == 0 && !signalled }

        public var description: String { signalled ? "killed by signal \(status)" : "exited with status \(status)" }
    }

    /// A wait that ran past its deadline; the child's process group has been killed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The command line.
        public let arguments: [String]
        /// The deadline, in seconds.
        public let seconds: Double

        public var description: String { "\(arguments.joined(separator: " ")) did not finish within \(seconds) s" }
    }

    /// The child's process ID, also its process group's.
    public let pid: pid_t
    /// The command line it was started with.
    public let arguments: [String]

    private let lock = NSLock()
    private var termination: Termination?
    private var inputDescriptor: Int32 = -1
    private var outputDescriptor: Int32 = -1
    private var errorDescriptor: Int32 = -1
    private var outputLineBuffer: [UInt8] = []

    /// Starts `arguments[0]` (a path) with the rest as its arguments, in `environment` (this process's own
    /// when nil).
    public init(
        _ arguments: [String], environment: [String: String]? = nil,
        input: Input = .null, output: Output = .pipe, errors: Output = .pipe
    ) throws {
        precondition(!arguments.isEmpty, "a command line names its program")
        self.arguments = arguments
        // A child that stops reading must not kill the test with SIGPIPE when it is written to.
        Glibc.signal(SIGPIPE, SIG_IGN)

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }

        switch input {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let (read, write) = try Self.pipe()
            inputDescriptor = write
            childEnds.append(read)
            posix_spawn_file_actions_adddup2(&actions, read, 0)
        case .file(let path):
            posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        }
        switch output {
        case .null, .sameAsOutput:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        case .pipe:
            let (read, write) = try Self.pipe()
            outputDescriptor = read
            childEnds.append(write)
            posix_spawn_file_actions_adddup2(&actions, write, 1)
        }
        switch errors {
        case .null:
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        case .sameAsOutput:
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .pipe:
            let (read, write) = try Self.pipe()
            errorDescriptor = read
            childEnds.append(write)
            posix_spawn_file_actions_adddup2(&actions, write, 2)
        }
        guard coffer_spawn_close_from(&actions, 3) == 0 else { throw POSIXError(.ENOSYS) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let environmentLines = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var child: pid_t = 0
        // ETXTBSY: a script a test just wrote can still be open for writing in another test's child, between its
        // fork and its exec; try again briefly.
        var spawned = ETXTBSY
        for attempt in 0..<50 where spawned == ETXTBSY {
            if attempt > 0 { usleep(10_000) }
            spawned = Self.withCStrings(arguments) { argv in
                Self.withCStrings(environmentLines) { envp in
                    posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
                }
            }
        }
        guard spawned == 0 else {
            [inputDescriptor, outputDescriptor, errorDescriptor].filter { $0 >= 0 }.forEach { close($0) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        pid = child
    }

    deinit {
        kill()
        [inputDescriptor, outputDescriptor, errorDescriptor].filter { $0 >= 0 }.forEach { close($0) }
    }

    // MARK: Running to the end

    /// What a finished child printed, and how it ended.
    public struct Outcome: Sendable {
        /// How it ended.
        public let termination: Termination
        /// Its standard output (with standard error, when that was ``Output/sameAsOutput``).
        public let output: Data
        /// Its standard error, when that was a pipe of its own.
        public let errors: Data

        /// The exit status, or the number of the signal that ended it.
        public var status: Int32 { termination.status }
        /// Standard output as UTF-8 text.
        public var outputText: String { String(decoding: output, as: UTF8.self) }
        /// Standard error as UTF-8 text.
        public var errorText: String { String(decoding: errors, as: UTF8.self) }
    }

    /// Runs `arguments` to the end with `input` on standard input, and returns what it printed. Past
    /// `timeout` the child's group is killed and ``TimedOut`` thrown.
    public static func run(
        _ arguments: [String], input: Data = Data(), environment: [String: String]? = nil, errors: Output = .pipe,
        timeout: Duration = .seconds(120)
    ) throws -> Outcome {
        let child = try ChildProcess(arguments, environment: environment, input: .pipe, output: .pipe, errors: errors)
        return try child.finish(writing: input, timeout: timeout)
    }

    /// Runs `arguments` to the end with the UTF-8 `input` on standard input.
    public static func run(
        _ arguments: [String], input: String, environment: [String: String]? = nil, errors: Output = .pipe,
        timeout: Duration = .seconds(120)
    ) throws -> Outcome {
        try run(arguments, input: Data(input.utf8), environment: environment, errors: errors, timeout: timeout)
    }

    /// Writes `input` (then ends standard input), reads standard output and error to their end, and waits
    /// for the exit, all within `timeout`. The output starts where ``nextOutputLine(timeout:)`` stopped; a
    /// child already killed is only read to the end of what it printed.
    public func finish(writing input: Data = Data(), timeout: Duration = .seconds(120)) throws -> Outcome {
        let deadline = ContinuousClock.now + timeout
        var pending = input
        if inputDescriptor >= 0, pending.isEmpty { closeInput() }
        var output = Data(outputLineBuffer), errors = Data()
        outputLineBuffer.removeAll()
        while outputDescriptor >= 0 || errorDescriptor >= 0 || (inputDescriptor >= 0 && !pending.isEmpty) {
            var descriptors: [pollfd] = []
            if outputDescriptor >= 0 { descriptors.append(pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)) }
            if errorDescriptor >= 0 { descriptors.append(pollfd(fd: errorDescriptor, events: Int16(POLLIN), revents: 0)) }
            if inputDescriptor >= 0, !pending.isEmpty {
                descriptors.append(pollfd(fd: inputDescriptor, events: Int16(POLLOUT), revents: 0))
            }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return try timedOut(timeout) }
            let ready = Glibc.poll(&descriptors, nfds_t(descriptors.count), Int32(Self.milliseconds(remaining)))
            if ready < 0 && errno == EINTR { continue }
            for descriptor in descriptors where descriptor.revents != 0 {
                if descriptor.fd == inputDescriptor {
                    let written = pending.withUnsafeBytes { Glibc.write(inputDescriptor, $0.baseAddress, min($0.count, 65536)) }
                    if written > 0 { pending.removeFirst(written) }
                    if written < 0 && errno != EINTR && errno != EAGAIN { pending.removeAll() }
                    if pending.isEmpty { closeInput() }
                } else if descriptor.fd == outputDescriptor {
                    if !Self.readChunk(outputDescriptor, into: &output) { close(outputDescriptor); outputDescriptor = -1 }
                } else if descriptor.fd == errorDescriptor {
                    if !Self.readChunk(errorDescriptor, into: &errors) { close(errorDescriptor); errorDescriptor = -1 }
                }
            }
        }
        let remaining = deadline - ContinuousClock.now
        guard let termination = wait(timeout: max(remaining, .zero)) else { return try timedOut(timeout) }
        return Outcome(termination: termination, output: output, errors: errors)
    }

    private func timedOut(_ timeout: Duration) throws -> Outcome {
        kill()
        throw TimedOut(arguments: arguments, seconds: Double(timeout.components.seconds))
    }

    // MARK: Talking to a running child

    /// Writes `data` to the child's standard input (an ``Input/pipe``); false when the child no longer reads.
    @discardableResult
    public func write(_ data: Data) -> Bool {
        guard inputDescriptor >= 0 else { return false }
        return data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(inputDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// Ends the child's standard input.
    public func closeInput() {
        if inputDescriptor >= 0 { close(inputDescriptor) }
        inputDescriptor = -1
    }

    /// The next line the child prints on standard output (without its newline), or nil at the end of its
    /// output or past `timeout`.
    public func nextOutputLine(timeout: Duration = .seconds(60)) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let newline = outputLineBuffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: outputLineBuffer[..<newline], as: UTF8.self)
                outputLineBuffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline - ContinuousClock.now
            guard outputDescriptor >= 0, remaining > .zero else { return nil }
            var descriptor = pollfd(fd: outputDescriptor, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&descriptor, 1, Int32(Self.milliseconds(remaining))) > 0 {
                var chunk = Data()
                if Self.readChunk(outputDescriptor, into: &chunk) {
                    outputLineBuffer.append(contentsOf: chunk)
                } else {
                    close(outputDescriptor)
                    outputDescriptor = -1
                }
            }
        }
    }

    // MARK: Waiting and stopping

    /// Whether the child has not been seen to exit.
    public var isRunning: Bool { terminationIfEnded() == nil }

    /// How the child ended, without waiting; nil while it runs.
    public func terminationIfEnded() -> Termination? {
        lock.lock()
        defer { lock.unlock() }
        if let termination { return termination }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        termination = Self.termination(status)
        return termination
    }

    /// Waits up to `timeout` for the child to exit; nil when it still runs.
    public func wait(timeout: Duration = .seconds(60)) -> Termination? {
        let deadline = ContinuousClock.now + timeout
        var pause = Duration.milliseconds(1)
        while true {
            if let ended = terminationIfEnded() { return ended }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return nil }
            usleep(useconds_t(Self.milliseconds(min(pause, remaining)) * 1000))
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// Sends `signal` to the child (not its group).
    public func signal(_ number: Int32) {
        if terminationIfEnded() == nil { Glibc.kill(pid, number) }
    }

    /// Sends SIGTERM and waits up to `grace` for the child to exit; then kills its group.
    @discardableResult
    public func terminate(grace: Duration = .seconds(10)) -> Termination {
        signal(SIGTERM)
        return wait(timeout: grace) ?? kill()
    }

    /// Kills the child's whole process group with SIGKILL and reaps the child.
    @discardableResult
    public func kill() -> Termination {
        lock.lock()
        defer { lock.unlock() }
        // Whatever the child left in its group (a pinentry, a helper it forked) goes too, even once the
        // child itself has been reaped; the child is signalled only while its PID is still its own.
        Glibc.kill(-pid, SIGKILL)
        if let termination { return termination }
        Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let ended = Self.termination(status)
        termination = ended
        return ended
    }

    // MARK: Plumbing

    private static func termination(_ status: Int32) -> Termination {
        let signalNumber = status & 0x7f
        return signalNumber == 0
            ? Termination(status: (status >> 8) & 0xff, signalled: false)
            : Termination(status: signalNumber, signalled: true)
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard coffer_pipe_close_on_exec(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        return (ends[0], ends[1])
    }

    /// Reads what is available from `descriptor` into `data`; false at its end.
    private static func readChunk(_ descriptor: Int32, into data: inout Data) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            data.append(contentsOf: buffer[..<count])
            return true
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }

    private static func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
