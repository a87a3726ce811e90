import Foundation
import KeychainSelection
import KeychainModel

/// A keychain: typed, async access to generic and internet passwords, with Apple's semantics.
///
/// ```swift
/// let keychain = Keychain()
/// try await keychain.set(GenericPassword(service: "com.example.api", account: "alice", value: token))
/// if let item = try await keychain.item(matching: GenericPasswordQuery(service: "com.example.api", account: "alice")) {
///     use(item.value)
/// }
/// ```
///
/// Every call builds the dictionary Apple's `SecItem…` API would take and hands it to the keychain,
/// which applies Apple's rules and answers with Apple's statuses; failures are ``KeychainError``s that
/// keep the status. A `Keychain` is a small value: copy it and use it from any task. The calls are
/// `async` for real: the work (SQLite writes and their `fsync`, the passcode KDF, a wait for the daemon)
/// runs on Coffer's own threads while the calling task is suspended, so the cooperative pool is never
/// blocked, and concurrent calls proceed in parallel (the keychain serialises writers and lets readers
/// run concurrently; the daemon's connection carries many requests at once).
public struct Keychain: Sendable {
    /// The dictionary-level client every call goes through; use it for what the typed API does not cover.
    public let client: any KeychainClient

    /// The keychain the environment selects, by the rule every front end follows: `COFFER_HOME` set → the
    /// embedded keychain in that folder, with the access groups listed in `COFFER_ACCESS_GROUPS`
    /// (unrestricted when unset); else `COFFER_SOCKET` set, or the system daemon's socket present → the
    /// daemon; else the embedded keychain in `$XDG_DATA_HOME/coffer` or `~/.local/share/coffer`.
    ///
    /// Make one and share it: each call opens a keychain of its own (its threads, its connection and, when
    /// embedded, its lock state).
    public init() {
        self.init(client: KeychainLocation.client())
    }

    /// An embedded keychain in `folder`, created on first use.
    ///
    /// - Parameters:
    ///   - folder: the keychain folder (created with mode 0700 when absent).
    ///   - accessGroups: the caller's access groups, as an app's entitlements list them: the first is
    ///     the default for adds, and naming any other group is `errSecMissingEntitlement` (-34018).
    ///     An empty list fails every call with -34018, as an app without groups does. Nil leaves the
    ///     caller unrestricted, with adds going to `coffer.default`.
    public init(folder: URL, accessGroups: [String]? = nil) {
        let caller =
            accessGroups.map { CallerContext(accessGroups: .list($0)) }
            ?? CallerContext(accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup))
        self.init(client: EmbeddedKeychain(folder: KeychainFolder(url: folder), caller: caller))
    }

    /// A keychain over any client: an embedded keychain, a daemon connection, or a test double.
    public init(client: any KeychainClient) {
        self.client = client
    }
}
