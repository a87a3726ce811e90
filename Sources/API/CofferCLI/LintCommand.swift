import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `coffer lint [PATH…]`: runs `coffer-lint` (installed beside `coffer`, else on the `PATH`) in this process's place,
/// so its output and exit status are the command's; swift-syntax stays out of `coffer` itself.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Find the pitfalls of Apple's keychain calls in Swift source (runs coffer-lint).",
        discussion: """
            Query dictionaries are followed from where they are built, through the package's helpers and wrappers, \
            to the SecItemAdd, SecItemCopyMatching, SecItemUpdate, SecItemDelete and SecKeyCreateRandomKey calls that \
            use them, and judged with the keychain's own rules. Findings are printed as the compiler prints them \
            (--format json or sarif for tools); exit status 2 for an error, 1 for warnings only. \
            `// coffer-lint:disable RULE` on a line (or the line before) silences RULE there; \
            `// coffer-lint:disable-file RULE` in the whole file; a .coffer-lint.json in the current folder turns \
            rules off and leaves paths out. `coffer lint --list-rules` names every rule, `--explain RULE` says why.
            """)

    @Argument(parsing: .captureForPassthrough, help: "Files or folders, and coffer-lint's options (--format, --config, --list-rules, --explain).")
    var arguments: [String] = []

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let tool = SpawnedExecutable.besideSelf("coffer-lint") ?? SpawnedExecutable.onPath("coffer-lint", environment: environment) else {
            throw CLIFailure("lint: coffer-lint is not installed beside coffer or on the PATH")
        }
        try ProcessReplacement.replace(with: tool, arguments: [tool] + arguments, command: "lint")
    }
}
