import ArgumentParser
import SyncServer

/// `coffer sync server add-account DSN`: a new account, a PostgreSQL role of its own.
struct ServerAddAccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-account",
        abstract: "Add an account: a PostgreSQL role that sees its own rows only. Prints its name and password once.",
        discussion: """
            The password is generated and printed once; the server keeps only its SCRAM verifier. Hand both to \
            the account's owner, who gives them to `coffer sync setup`.
            """
    )

    @OptionGroup var server: ServerConnectionOptions

    func run() async throws {
        let account = try await server.withConnection { connection, _ in try await SyncServerAdministration(connection).addAccount() }
        print("role: \(account.role)")
        // coffer-lint:disable secret-in-log: the new account's password is this command's output.
        print("password: \(account.password)")
    }
}
