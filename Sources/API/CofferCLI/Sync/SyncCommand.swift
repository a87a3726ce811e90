import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `coffer sync …`: runs `coffer-sync` (beside `coffer`, else on `PATH`) in this process's place, with the same
/// arguments and the user's own group, so that PostgreSQL's client is loaded by sync commands only.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync synchronizable items across machines through PostgreSQL (see `coffer sync --help`).")

    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var arguments: [String] = []

    func run() throws {
        let name = "coffer-sync"
        guard let program = SpawnedExecutable.besideSelf(name) ?? SpawnedExecutable.onPath(name, environment: ProcessInfo.processInfo.environment)
        else { throw CLIFailure("sync: \(name) is not installed beside coffer or on PATH") }
        // An installed `coffer` runs setgid to its front-end group; the program that takes its place runs with the
        // user's own group, as whatever coffer starts does.
        let group = getgid()
        guard setregid(group, group) == 0 else { throw CLIFailure("sync: cannot drop coffer's group: \(String(cString: strerror(errno)))") }
        var argv: [UnsafeMutablePointer<CChar>?] = ([name] + arguments).map { strdup($0) } + [nil]
        execv(program, &argv)
        let reason = String(cString: strerror(errno))
        argv.forEach { free($0) }
        throw CLIFailure("sync: cannot run \(program): \(reason)")
    }
}
