import ArgumentParser
import CCofferSystem
import CofferDiagnostics
import Foundation
import Keystore

/// `coffer`: the keychain from the command line.
@main
struct CofferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coffer",
        abstract: "Apple's keychain for Linux: store and read secrets, manage the passcode and lock state.",
        discussion: """
            The keychain lives in $COFFER_HOME, else $XDG_DATA_HOME/coffer, else ~/.local/share/coffer.
            Passcodes are read from standard input (one per line) when it is not a terminal, and \
            from the terminal without echo otherwise; they are never taken as arguments.
            """,
        subcommands: [
            StatusCommand.self, UnlockCommand.self, LockCommand.self, PasscodeCommand.self,
            AddGenericPassword.self, FindGenericPassword.self, DeleteGenericPassword.self,
            AddInternetPassword.self, FindInternetPassword.self, DeleteInternetPassword.self,
            DumpKeychain.self, AppsCommand.self,
        ]
    )

    static func main() {
        _ = coffer_disable_core_dumps()
        DiagnosticsLevel.bootstrapExecutable()
        do {
            var command = try parseAsRoot(ItemCommandSupport.rewritingTrailingPasswordFlag(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data("coffer: \(failure.message)\n".utf8))
            Foundation.exit(failure.exitCode)
        } catch {
            exit(withError: error)
        }
    }
}
