import Query

/// What a client asks the daemon. The item operations carry the caller's dictionaries untouched: the daemon
/// parses them with the same `QueryParser` as the embedded keychain, so every rule and status is the same.
///
/// The daemon answers each with one ``Response``:
///
/// | request | success | failure |
/// | --- | --- | --- |
/// | ``add(_:)``, ``copyMatching(_:)`` | ``Response/value(_:)`` | ``Response/status(_:)`` |
/// | ``update(query:attributesToUpdate:)``, ``delete(_:)`` | `.status(.success)` | ``Response/status(_:)`` |
/// | ``lockStatus`` | ``Response/lockStatus(_:)`` | ``Response/keystoreError(_:)`` |
/// | ``unlock(passcode:)``, ``lock`` | `.status(.success)` | ``Response/keystoreError(_:)`` |
/// | ``appsList`` | ``Response/apps(_:)`` | ``Response/status(_:)`` |
/// | ``setPasscode(new:)``, ``changePasscode(old:new:)``, ``removePasscode(current:)``, ``setEraseAfterFailedAttempts(_:passcode:)`` | `.status(.success)` | ``Response/keystoreError(_:)`` |
/// | ``appsAdd(_:passcode:)``, ``appsRemove(_:passcode:)`` | ``Response/apps(_:)`` | ``Response/keystoreError(_:)``, ``Response/status(_:)`` |
///
/// Registry edits carry the keychain passcode: the daemon verifies it (counting failures like any
/// unlock), so a program of the user cannot register itself behind the user's back.
public enum Request: Sendable, Equatable {
    /// `SecItemAdd`.
    case add(QueryDictionary)
    /// `SecItemCopyMatching`.
    case copyMatching(QueryDictionary)
    /// `SecItemUpdate`.
    case update(query: QueryDictionary, attributesToUpdate: QueryDictionary)
    /// `SecItemDelete`.
    case delete(QueryDictionary)
    /// The keystore's passcode, lock state and throttle.
    case lockStatus
    /// Unlocks the caller's keychain with its passcode.
    case unlock(passcode: PasscodeBytes)
    /// Locks the caller's keychain.
    case lock
    /// Lists the entitlements registry.
    case appsList
    /// Adds an entry to the entitlements registry; needs the keychain passcode.
    case appsAdd(AppRegistration, passcode: PasscodeBytes)
    /// Removes an entry from the entitlements registry; needs the keychain passcode.
    case appsRemove(AppSelector, passcode: PasscodeBytes)
    /// Sets the first passcode.
    case setPasscode(new: PasscodeBytes)
    /// Changes the passcode.
    case changePasscode(old: PasscodeBytes, new: PasscodeBytes)
    /// Removes the passcode (destroying the WhenPasscodeSetThisDeviceOnly class).
    case removePasscode(current: PasscodeBytes)
    /// Turns erasing after ten wrong passcodes on or off.
    case setEraseAfterFailedAttempts(Bool, passcode: PasscodeBytes)

    /// The request's name for logs (`add`, `unlock`…); it never includes the request's contents.
    public var name: String {
        switch self {
        case .add: "add"
        case .copyMatching: "copyMatching"
        case .update: "update"
        case .delete: "delete"
        case .lockStatus: "lockStatus"
        case .unlock: "unlock"
        case .lock: "lock"
        case .appsList: "appsList"
        case .appsAdd: "appsAdd"
        case .appsRemove: "appsRemove"
        case .setPasscode: "setPasscode"
        case .changePasscode: "changePasscode"
        case .removePasscode: "removePasscode"
        case .setEraseAfterFailedAttempts: "setEraseAfterFailedAttempts"
        }
    }
}
