import Foundation
import KeychainModel
import KeychainOperations

/// A user's program registry as the keychain lists it (the `appsList` request, what `coffer apps list` shows): what
/// the providers that serve other programs (the Secret Service provider, the ssh-agent) identify their callers with.
/// An embedded keychain lists none: every caller is then an unregistered program.
///
/// The listing does not carry the file an identity group was last seen on, so an identity-group program is
/// recognised by its group at connect and the file now at its registered path (or that file removed while it
/// ran), as cofferd accepts after a package upgrade; recording the replaced file is cofferd's job.
public struct ListedPrograms: RegisteredPrograms {
    public let snapshot: AppRegistry

    /// The registry of the entries `listed`.
    public init(_ listed: [KeychainOperations.RegisteredApp]) {
        var registry = AppRegistry()
        for app in listed {
            registry.register(
                RegisteredApp(
                    path: app.executablePath, appID: app.applicationIdentifier, groups: app.accessGroups,
                    pinnedSHA256: app.executableHash.map { Hexadecimal.text($0) },
                    identity: app.identityGroupID.map { .init(gid: $0, device: 0, inode: 0) }))
        }
        snapshot = registry
    }

    /// Does nothing: the listing is a copy.
    public func recordFile(ofGroup gid: UInt32, device: UInt64, inode: UInt64) {}
}
