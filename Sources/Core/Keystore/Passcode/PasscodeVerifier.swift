import KeychainModel

/// Checks the passcode without unlocking, for re-authentication ("enter your passcode to continue").
///
/// An attempt counts exactly as an unlock attempt (``Keystore/unlock(passcode:)``) does, so re-authentication
/// is no way around the throttle: it is counted in the keybag before the KDF runs, a right passcode resets
/// the count, wrong ones start the delays of ``ThrottlePolicy``, an attempt during a delay is refused
/// without running the KDF, and with erasing turned on (``Keystore/setEraseAfterFailedAttempts(_:passcode:)``)
/// the tenth wrong passcode in a row erases the class keys. The count is the keybag's, shared with unlocking
/// and with every process that opens the keychain.
///
/// What it does not do is unlock: the lock state and the class keys in memory stay as they were, except
/// after that erase. Code that only has to confirm the user, such as LocalAuthentication, gets a verifier
/// rather than the keystore: it can check the passcode and nothing else.
public struct PasscodeVerifier: Sendable {
    private let keystore: Keystore

    /// A verifier of `keystore`'s passcode.
    public init(keystore: Keystore) { self.keystore = keystore }

    /// Returns when `passcode` is the keychain's passcode; the attempt counts as an unlock attempt.
    ///
    /// - Throws: ``KeystoreError/wrongPasscode(failedAttempts:retryAfter:)`` for a wrong passcode (counted);
    ///   ``KeystoreError/throttled(retryAfter:)`` during a delay, without checking the passcode or counting;
    ///   ``KeystoreError/erasedAfterFailedAttempts`` when this wrong passcode erased the class keys;
    ///   ``KeystoreError/noPasscodeSet`` when no passcode is set; ``KeystoreError/keybagDamaged(reason:)``
    ///   or ``KeystoreError/io(reason:)`` when the keybag cannot be read or written.
    ///
    /// `attempts` says which count a wrong passcode is charged to (``PasscodeAttempts``); the keybag's unless told otherwise.
    public func verify(_ passcode: SecretBytes, charging attempts: PasscodeAttempts = .keybag) throws(KeystoreError) {
        _ = try keystore.verifyPasscode(passcode, charging: attempts)
    }
}
