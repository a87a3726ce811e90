import ArgumentParser
import CofferDiagnostics
import Foundation
import KeychainModel

/// `coffer`: the keychain from the command line.
@main
struct CofferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coffer",
        abstract: "Apple's keychain for Linux: store and read secrets, manage the passcode and lock state.",
        discussion: """
            Which keychain: with $COFFER_HOME set, the embedded keychain in that folder; else the daemon \
            (cofferd) at $COFFER_SOCKET or /run/coffer/socket when present; else the embedded keychain in \
            $XDG_DATA_HOME/coffer or ~/.local/share/coffer.
            Passcodes are read from standard input (one per line) when it is not a terminal, and \
            from the terminal without echo otherwise; they are never taken as arguments.
            """,
        version: "coffer \(CofferVersion.current)",
        subcommands: [
            StatusCommand.self, DoctorCommand.self, UnlockCommand.self, LockCommand.self, PasscodeCommand.self,
            AddPassword<GenericPasswordAttributes>.self, FindPassword<GenericPasswordAttributes>.self,
            DeletePassword<GenericPasswordAttributes>.self,
            AddPassword<InternetPasswordAttributes>.self, FindPassword<InternetPasswordAttributes>.self,
            DeletePassword<InternetPasswordAttributes>.self,
            DumpKeychain.self, CreateKeyCommand.self, FindKeyCommand.self, ExportPublicKeyCommand.self,
            SignCommand.self, VerifyCommand.self, DeleteKeyCommand.self, ImportCommand.self, FindCertificateCommand.self,
            VerifyCertCommand.self, FindIdentityCommand.self, ExportCommand.self, AppsCommand.self, PromptAgentCommand.self,
            SSHAgentCommand.self, ImportSecretServiceCommand.self, FileCommand.self, BackupCommand.self, BackupRecipientCommand.self, RestoreCommand.self,
            LintCommand.self, AuditCommand.self, RunCommand.self,
            SyncCommand.self, KeystoreCommand.self,
        ]
    )

    static func main() {
        CLIKeychain.disableCoreFiles()
        DiagnosticsLevel.bootstrapExecutable()
        do {
            try ArgumentEncoding.validateProcessArguments()
            let arguments = ItemCommandSupport.rewritingTrailingPasswordFlag(Array(CommandLine.arguments.dropFirst()))
            if let lookup = QuickFind(arguments) {
                CLIKeychain.secure()
                CommandSync.run(when: "before reading")
                try lookup.run()
                return
            }
            var command = try parse(arguments)
            // The doctor only looks: it starts no daemon for the session and reads no secret. `sync` runs another
            // program in this one's place, which secures itself.
            if !(command is DoctorCommand || command is SyncCommand) { CLIKeychain.secure() }
            CommandSync.before(command)
            try command.run()
            CommandSync.after(command)
        } catch let failure as CLIFailure {
            FileHandle.standardError.write(Data("coffer: \(failure.message)\n".utf8))
            Foundation.exit(failure.exitCode)
        } catch {
            exit(withError: error)
        }
    }

    /// The command the arguments name. The subcommand they start with is parsed on its own first: building
    /// the whole command tree and reflecting over every command costs milliseconds at each start, more
    /// than a lookup takes. Anything that does not parse that way (help, a mistake) is parsed again from
    /// the root, which gives ArgumentParser's usual messages.
    private static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        if let name = arguments.first,
            let subcommand = configuration.subcommands.first(where: { $0.configuration.commandName == name }),
            let command = try? subcommand.parseAsRoot(Array(arguments.dropFirst()))
        {
            return command
        }
        return try parseAsRoot(arguments)
    }
}
