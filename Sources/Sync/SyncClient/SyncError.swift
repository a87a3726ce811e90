import Foundation

/// Why sync stopped or refused something; each case says what to do about it, and none holds a secret.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// This keychain has not joined a sync account.
    case notSetUp
    /// This keychain already syncs with an account.
    case alreadySetUp
    /// The account already has devices: join it instead of setting it up.
    case accountInUse
    /// Something sync keeps locally is damaged.
    case damaged(String)
    /// The server sent something this device refuses (a forged device log, a key share that does not open).
    case untrustedServer(String)
    /// A recovery key or pairing code that is not one.
    case invalidCode(String)
    /// The keychain refused (locked, or a store failure): its status and reason.
    case keychain(status: Int32, reason: String)
    /// The server refused or failed.
    case server(String)

    public var description: String {
        switch self {
        case .notSetUp: "this keychain does not sync yet: run `coffer sync setup` or `coffer sync join` first"
        case .alreadySetUp: "this keychain already syncs with an account"
        case .accountInUse: "the account already has devices: join it with `coffer sync join` instead"
        case .damaged(let what): "sync state is damaged: \(what)"
        case .untrustedServer(let what): "refused what the server sent: \(what)"
        case .invalidCode(let what): what
        case .keychain(let status, let reason): "the keychain refused (\(status)): \(reason)"
        case .server(let reason): reason
        }
    }
}
