import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs another program in this process's place (`execve`): its output, signals and exit status are then the
/// command's own, with nothing of `coffer` left in between.
///
/// An installed `coffer` runs setgid to its front-end group, which the daemon trusts; the program that takes its place
/// runs with the user's own group, as whatever coffer starts does.
enum ProcessReplacement {
    /// Replaces this process with `program` run with `arguments` (its name first) and `environment` (`NAME=value`
    /// strings, as C wants them; this process's own when nil). Returns only by throwing, naming `command`.
    static func replace(
        with program: String, arguments: [String], environment: [UnsafeMutablePointer<CChar>?]? = nil, command: String
    ) throws -> Never {
        let group = getgid()
        guard setregid(group, group) == 0 else {
            throw CLIFailure("\(command): cannot drop coffer's group: \(String(cString: strerror(errno)))")
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        if var environment {
            if environment.last != nil { environment.append(nil) }
            execve(program, &argv, &environment)
        } else {
            execv(program, &argv)
        }
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        throw CLIFailure("\(command): cannot run \(program): \(reason)", exitCode: errno == ENOENT ? 127 : 126)
    }
}
