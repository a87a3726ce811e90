import Foundation
import KeychainClient
import KeychainOperations
import ProgramIdentity

/// The user's program registry as the keychain lists it (`coffer apps`): cofferd's, read anew for each client
/// the provider identifies. An embedded keychain has no registry: every client is then an unregistered program.
///
/// The identity record's file is not listed by the daemon, so an identity-group program is recognised by its
/// group at connect and the file now at its registered path (or that file removed while it ran), which is
/// what the daemon accepts after a package upgrade; recording the replaced file is the daemon's job.
struct KeychainRegisteredPrograms: RegisteredPrograms {
    let snapshot: AppRegistry

    /// The registry `client` lists; empty when it lists none (an embedded keychain, a refusal).
    static func read(from client: any KeychainClient) -> KeychainRegisteredPrograms {
        var registry = AppRegistry()
        if let listed = try? client.sendBlocking(.appsList).appsResult() {
            for app in listed { registry.register(Self.entry(app)) }
        }
        return KeychainRegisteredPrograms(snapshot: registry)
    }

    func recordFile(ofGroup gid: UInt32, device: UInt64, inode: UInt64) {}

    private static func entry(_ app: KeychainOperations.RegisteredApp) -> ProgramIdentity.RegisteredApp {
        ProgramIdentity.RegisteredApp(
            path: app.executablePath, appID: app.applicationIdentifier, groups: app.accessGroups,
            pinnedSHA256: app.executableHash.map { $0.map { String(format: "%02x", $0) }.joined() },
            identity: app.identityGroupID.map { .init(gid: $0, device: 0, inode: 0) })
    }
}
