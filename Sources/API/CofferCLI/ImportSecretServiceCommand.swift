import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `coffer import-secret-service [--for PATH]`: copies every item of the running Secret Service provider
/// (gnome-keyring, KWallet, KeePassXC) into Coffer by running `coffer-secret-service --import`, whose items
/// these become: with cofferd they belong to that program's access group, which this one cannot write.
struct ImportSecretServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-secret-service",
        abstract: "Copy every item of the running Secret Service provider (gnome-keyring, KWallet, KeePassXC) into Coffer.",
        discussion: """
            Run it while the other provider still owns org.freedesktop.secrets on your session bus; then stop it \
            and start coffer-secret-service. Locked collections are unlocked through that provider's own prompt. \
            Items already in Coffer (same attributes and secret) are skipped, so it can be run again. The copies \
            are visible to every program, as they were; --for gives them to one program instead. Shows progress \
            on a terminal and a summary at the end; exits non-zero when something could not be copied. The copy \
            is made by coffer-secret-service (found beside coffer, else on PATH).
            """)

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp("Give the copies to the program at this path (as if it had stored them).", valueName: "path"))
    var program: String?

    func run() throws {
        var arguments = ["coffer-secret-service", "--import"]
        if let program { arguments += ["--for", program] }
        let status = try Self.runProvider(arguments)
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs `coffer-secret-service` (beside this executable, else on `PATH`) with `arguments` (the first is its
    /// name), its standard streams this process's, and returns its exit status (128 + the signal when killed).
    static func runProvider(_ arguments: [String]) throws -> Int32 {
        let beside = SpawnedExecutable.besideSelf(arguments[0])
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned =
            if let beside {
                posix_spawn(&child, beside, nil, nil, &argv, environ)
            } else {
                posix_spawnp(&child, arguments[0], nil, nil, &argv, environ)
            }
        guard spawned == 0 else {
            throw CLIFailure("import-secret-service: cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { throw CLIFailure("import-secret-service: lost \(arguments[0]) (errno \(errno))") }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
