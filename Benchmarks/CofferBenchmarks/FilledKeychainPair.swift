import Foundation
import KeychainSelection
import KeychainModel
import ProgramIdentity

/// An embedded keychain and a `cofferd` keychain holding the same 1 000 generic passwords, for comparing a find made
/// in this process with the same find made through the daemon.
///
/// Both are filled alike, one add at a time, so that their tables are laid out alike. The daemon's items are in
/// whichever access group the daemon gives this program (under valgrind it identifies valgrind's own binary); the
/// embedded ones are in a group of the same form, so that both finds do the same work.
struct FilledKeychainPair {
    /// The keychain in this process.
    let embedded: EmbeddedKeychain
    /// The daemon serving the other one.
    let daemon: BenchmarkDaemon
    /// A client of that daemon.
    let client: DaemonKeychain

    /// Starts a daemon and fills both keychains, in folders of `scratch` named after `name`.
    init(in scratch: URL, name: String) throws {
        // A group of the form the daemon gives an unregistered program (its length weighs on the blind indexes).
        let group = AppRegistry.unregisteredGroup(forPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        embedded = EmbeddedKeychain(
            folder: KeychainFolder(url: scratch.appendingPathComponent("\(name)-embedded")),
            caller: .init(accessGroups: .list([group])))
        daemon = try BenchmarkDaemon(scratch: scratch.appendingPathComponent(name))
        client = DaemonKeychain(socketPath: daemon.socket)
        do {
            for index in 0..<1_000 {
                _ = try embedded.blocking.add(ItemsBenchmark.item(index))
                _ = try client.blocking.add(ItemsBenchmark.item(index))
            }
        } catch {
            daemon.stop()
            throw error
        }
    }

    /// Stops the daemon.
    func stop() { daemon.stop() }
}
