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
        try ProcessReplacement.replace(with: program, arguments: [name] + arguments, command: "sync")
    }
}
