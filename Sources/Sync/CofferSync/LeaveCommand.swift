import ArgumentParser
import SyncClient

/// `coffer sync leave`: this keychain stops syncing.
struct LeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Stop syncing this keychain (its items stay). Remove it from the account on another device with remove-device.")

    func run() async throws {
        if let daemon = try DaemonSync.client() {
            _ = try await DaemonSync.account(daemon, .leave, reason: "Stop syncing your keychain.")
            return print("This keychain no longer syncs.")
        }
        let sync = try LocalKeychain.sync()
        try sync.leave()
        LocalKeychain.record(.left, in: sync)
        print("This keychain no longer syncs.")
    }
}
