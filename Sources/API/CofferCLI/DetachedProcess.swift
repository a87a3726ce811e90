import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Starting a program that outlives the command: in a session of its own, its standard streams on `/dev/null`,
/// with the user's own ids (an installed `coffer` runs setgid; what it starts does not keep that group unless
/// its own file is setgid too).
enum DetachedProcess {
    /// Starts `executable` with `arguments` (the first is its name) and `environment` (this process's when nil);
    /// `what` begins the failure's message.
    static func spawn(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, what: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // glibc's POSIX_SPAWN_SETSID (0x80, since 2.26), which its Swift module map leaves out without _GNU_SOURCE.
        let setSessionID: Int16 = 0x80
        posix_spawnattr_setflags(&attributes, setSessionID | Int16(POSIX_SPAWN_RESETIDS))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status: Int32
        if let environment {
            var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { envp.forEach { free($0) } }
            status = posix_spawn(&child, executable, &actions, &attributes, &argv, &envp)
        } else {
            status = posix_spawn(&child, executable, &actions, &attributes, &argv, environ)
        }
        guard status == 0 else { throw CLIFailure("\(what) (\(String(cString: strerror(status))))") }
        return child
    }
}
