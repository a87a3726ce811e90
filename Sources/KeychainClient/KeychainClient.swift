import KeychainModel
import Keystore
import Query

/// The one interface every front end (the `Security` module, the `Coffer` API, the CLI) uses to
/// reach a keychain, whether it runs in this process or behind the daemon.
///
/// Requests are Apple-style dictionaries; the keychain side parses them (one place for every rule)
/// and answers with Apple's status codes.
public protocol KeychainClient: Sendable {
    /// `SecItemAdd`.
    func add(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue?
    /// `SecItemCopyMatching`.
    func copyMatching(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue?
    /// `SecItemUpdate`.
    func update(_ query: QueryDictionary, attributesToUpdate: QueryDictionary) throws(KeychainStatus)
    /// `SecItemDelete`.
    func delete(_ query: QueryDictionary) throws(KeychainStatus)

    /// The passcode, lock state and throttle.
    func lockStatus() throws(KeystoreError) -> KeystoreStatus
    /// Unlocks with the passcode.
    func unlock(passcode: SecretBytes) throws(KeystoreError)
    /// Locks: class-A items become unreadable until the next unlock.
    func lock() throws(KeystoreError)

    /// Sets the first passcode (the KDF is calibrated where the keychain lives).
    func setPasscode(_ passcode: SecretBytes) throws(KeystoreError)
    /// Changes the passcode.
    func changePasscode(from old: SecretBytes, to new: SecretBytes) throws(KeystoreError)
    /// Removes the passcode; WhenPasscodeSetThisDeviceOnly items are lost.
    func removePasscode(current: SecretBytes) throws(KeystoreError)
    /// Turns erasing the class keys after ten wrong passcodes on or off.
    func setEraseAfterFailedAttempts(_ enabled: Bool, passcode: SecretBytes) throws(KeystoreError)
}
