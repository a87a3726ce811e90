import ArgumentParser
import Foundation
import SyncServer
import KeychainModel
import SyncClient

/// `coffer sync setup DSN`: this keychain founds the account and prints its recovery key.
struct SetupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Start syncing with a new account: this keychain becomes its first device. Prints the recovery key once.",
        discussion: """
            The account's role and password come from `coffer sync server add-account`. The recovery key lets you \
            join again when no trusted device is left: write it down, it is shown only now.
            """
    )

    @OptionGroup var server: ServerConnectionOptions
    @Option(help: "This device's name in the account (default: the host name).") var name: String?
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        let (endpoint, password) = try server.resolve()
        if let daemon = try DaemonSync.client() {
            let answer = try await DaemonSync.account(
                daemon, .setUp(server: endpoint.dsn, password: SecretBytes(copying: Array(password.utf8)), deviceName: name ?? LocalKeychain.hostName),
                reason: "Start syncing your keychain.")
            guard case .recoveryKey(let key) = answer else { throw CommandFailure("cofferd answered the setup without a recovery key") }
            let report = try await DaemonSync.runNow(daemon)
            return try show(recovery: key.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, sent: report.sent, endpoint: endpoint)
        }
        let sync = try LocalKeychain.sync()
        try LocalKeychain.authenticate(sync, reason: "Unlock the keychain to start syncing it.")
        let recovery = try await sync.setUp(server: endpoint, password: password, deviceName: name ?? LocalKeychain.hostName)
        LocalKeychain.record(.setUp, in: sync)
        let progress = LocalKeychain.progressLine
        let report = try await sync.syncNow(progress: progress)
        LocalKeychain.endProgress(progress != nil)
        try show(recovery: recovery.text, sent: report.sent, endpoint: endpoint)
    }

    private func show(recovery: String, sent: Int, endpoint: ServerEndpoint) throws {
        if json {
            try printJSON(["recoveryKey": recovery, "sent": "\(sent)"])
        } else {
            print("This keychain now syncs with \(endpoint.username) on \(endpoint.database) (\(sent) item(s) sent).")
            print("Recovery key (shown once; keep it offline):")
            print("  \(recovery)")
        }
    }
}
