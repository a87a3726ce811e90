import ArgumentParser
import Foundation

/// `coffer-sync`, which `coffer sync` runs: synchronizable items across machines through a PostgreSQL server.
///
/// A program of its own so that the PostgreSQL client it links is loaded by sync commands only, not at every
/// `coffer` start.
@main
struct CofferSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "coffer sync",
        abstract: "Synchronizable items across machines, end to end encrypted, through a PostgreSQL server.",
        discussion: """
            Passwords are never taken as arguments or in connection URIs: give them on standard input \
            (--password-stdin) or in $PGPASSWORD.
            """,
        subcommands: [
            SetupCommand.self, JoinCommand.self, ApproveCommand.self, DevicesCommand.self, RemoveDeviceCommand.self, StatusCommand.self,
            NowCommand.self, LeaveCommand.self, ServerCommand.self,
        ]
    )
}

/// `coffer sync server`: what a server's administrator does.
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Prepare a PostgreSQL database for sync and add accounts to it.",
        subcommands: [ServerInitCommand.self, ServerAddAccountCommand.self]
    )
}
