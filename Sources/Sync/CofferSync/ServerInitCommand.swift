import ArgumentParser
import SyncServer

/// `coffer sync server init DSN`: creates or migrates the sync schema in a database.
struct ServerInitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create (or bring up to date) Coffer's sync tables in a PostgreSQL database.",
        discussion: """
            Connect as the database's owner or a superuser: the command creates the schema coffer_sync and the \
            group role coffer_sync_account. Running it again changes nothing; after a Coffer update it migrates.
            """
    )

    @OptionGroup var server: ServerConnectionOptions

    func run() async throws {
        let (found, database) = try await server.withConnection { connection, endpoint in
            (try await SyncServerAdministration(connection).prepare(), endpoint.database)
        }
        print(found == 0 ? "prepared the sync schema in \(database)" : "the sync schema in \(database) is up to date (version \(found) found)")
    }
}
