import CCofferSystem

#if canImport(Glibc)
import Glibc
#endif

/// A program started to converse on its standard input and output, with `posix_spawn`.
///
/// The child gets the two pipes as descriptors 0 and 1, `/dev/null` as 2, and nothing else: every other
/// descriptor is closed at spawn, and the parent's pipe ends are close-on-exec from their creation, so no
/// program another thread starts meanwhile inherits them. It starts with no signal blocked and the stop
/// signals at their default, whatever the caller set, in the caller's process group (a curses pinentry
/// draws on the caller's terminal). The child is always reaped: ``finish(grace:)`` waits for it, ending it
/// with SIGTERM, then SIGKILL, when it does not leave on its own; `deinit` does the same without waiting.
final class SpawnedProgram {
    /// The child's process ID.
    let pid: pid_t
    /// The path it was started from.
    let path: String
    /// The parent's end of the child's standard input.
    private(set) var toProgram: Int32
    /// The parent's end of the child's standard output.
    let fromProgram: Int32
    private var reaped = false

    /// Starts the program at `path` with no arguments and this process's environment.
    init(path: String) throws(PromptFailure) {
        self.path = path
        let input = try Self.pipe(for: path)
        let output: (read: Int32, write: Int32)
        do {
            output = try Self.pipe(for: path)
        } catch {
            close(input.read)
            close(input.write)
            throw error
        }
        defer {
            // The child's ends belong to the child alone.
            close(input.read)
            close(output.write)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copy it makes: only 0 and 1 reach the program.
        posix_spawn_file_actions_adddup2(&actions, input.read, 0)
        posix_spawn_file_actions_adddup2(&actions, output.write, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        coffer_spawn_add_close_from(&actions, 3)

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
        // RESETIDS: the program runs with this process's real user and group IDs, never a group this process got
        // through a setgid file (the trusted prompt agent's), which it would otherwise keep as effective and saved.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_RESETIDS))

        var child: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { arguments.forEach { free($0) } }
        var spawned = posix_spawn(&child, path, &actions, &attributes, arguments, environ)
        // ETXTBSY: the program file is open for writing somewhere, for a moment (a package upgrade replacing it, or
        // another thread's child that inherited a descriptor to it between its fork and its exec). Try again briefly.
        for _ in 0..<Self.busyRetries where spawned == ETXTBSY {
            usleep(Self.busyPause)
            spawned = posix_spawn(&child, path, &actions, &attributes, arguments, environ)
        }
        guard spawned == 0 else {
            close(input.write)
            close(output.read)
            throw .unavailable("cannot run \(path): \(String(cString: strerror(spawned)))")
        }
        pid = child
        toProgram = input.write
        fromProgram = output.read
        // Writes wait in poll, never in write.
        _ = fcntl(toProgram, F_SETFL, fcntl(toProgram, F_GETFL) | O_NONBLOCK)
    }

    /// How often, and with what pause (µs), a program file busy being written is tried again: at most half a second.
    private static let busyRetries = 50
    private static let busyPause: useconds_t = 10_000

    deinit {
        if toProgram >= 0 { close(toProgram) }
        close(fromProgram)
        if !reaped { stop() }
    }

    /// Ends the program's standard input, which tells a well-behaved program to leave.
    func closeInput() {
        if toProgram >= 0 { close(toProgram) }
        toProgram = -1
    }

    /// Closes the program's input and waits up to `grace` for it to exit; then sends SIGTERM and waits as
    /// long again, then SIGKILL. The program is reaped when this returns.
    func finish(grace: Duration) {
        closeInput()
        if waitForExit(within: grace) { return }
        stop(grace: grace)
    }

    /// Sends SIGTERM, waits up to `grace`, then sends SIGKILL; the program is reaped when this returns.
    func stop(grace: Duration = .seconds(1)) {
        guard !reaped else { return }
        kill(pid, SIGTERM)
        if waitForExit(within: grace) { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        reaped = true
    }

    /// Polls for the exit until `limit` has passed; true once the program is reaped.
    private func waitForExit(within limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        var pause = Duration.milliseconds(1)
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) {
                reaped = true
                return true
            }
            if result < 0, errno == EINTR { continue }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return false }
            let nap = min(pause, remaining)
            usleep(useconds_t(nap.components.seconds * 1_000_000 + nap.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, .milliseconds(20))
        }
    }

    /// A close-on-exec pipe whose ends are above 2, so that placing them on 0 and 1 in the child never
    /// overwrites one with the other (a caller may run with its standard descriptors closed).
    private static func pipe(for path: String) throws(PromptFailure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard coffer_open_close_on_exec_pipe(&ends) == 0 else {
            throw .unavailable("cannot run \(path): no pipe: \(String(cString: strerror(errno)))")
        }
        for index in ends.indices where ends[index] < 3 {
            let raised = fcntl(ends[index], F_DUPFD_CLOEXEC, 3)
            let error = errno
            close(ends[index])
            ends[index] = raised
            guard raised >= 0 else {
                ends.filter { $0 >= 0 }.forEach { close($0) }
                throw .unavailable("cannot run \(path): no descriptor: \(String(cString: strerror(error)))")
            }
        }
        return (ends[0], ends[1])
    }
}
