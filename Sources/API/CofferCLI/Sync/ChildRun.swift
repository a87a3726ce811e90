import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Running a helper program to its end within a time limit, with the user's own ids (an installed `coffer` runs
/// setgid), no input, its output dropped and its standard error kept for a message.
enum ChildRun {
    /// How a run ended.
    enum Outcome: Equatable {
        /// It exited with `status` (a signal counts as 128 plus its number), having written `errors`.
        case finished(status: Int32, errors: String)
        /// It was still running at the limit, and was killed.
        case timedOut
        /// It could not be started.
        case notStarted(String)
    }

    /// Runs `executable` with `arguments` (the first is its name) and this process's environment.
    static func run(_ executable: String, _ arguments: [String], within limit: Duration) -> Outcome {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return .notStarted(String(cString: strerror(errno))) }
        // Neither end leaks into other children; the child's standard error is a copy made by dup2, which keeps it.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_RESETIDS))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, &attributes, &argv, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else { return .notStarted(String(cString: strerror(spawned))) }
        let errors = readToEnd(pipeEnds[0], until: .now + limit)
        guard let errors else {
            kill(child, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child, &status, 0)
            return .timedOut
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return .finished(status: code, errors: errors.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// What `descriptor` gives until its end (at most 4 KiB kept), or nil when `deadline` comes first.
    private static func readToEnd(_ descriptor: Int32, until deadline: ContinuousClock.Instant) -> String? {
        var kept: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = deadline - .now
            guard left > .zero else { return nil }
            var poll = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = Glibc.poll(&poll, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return String(decoding: kept, as: UTF8.self) }
            kept.append(contentsOf: buffer[..<min(count, max(0, 4096 - kept.count))])
        }
    }
}
