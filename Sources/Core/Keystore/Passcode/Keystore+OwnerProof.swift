import KeychainModel

// What a daemon asks before it lets a caller act as the keychain's owner.
extension Keystore {
    /// Checks that `passcode` is the keychain's, changing nothing else: the lock state stays as it was. A wrong
    /// one is charged to `attempts`, as an unlock's is; without a passcode this throws ``KeystoreError/noPasscodeSet``.
    public func proveOwner(passcode: SecretBytes, charging attempts: PasscodeAttempts = .keybag) throws(KeystoreError) {
        _ = try verifyPasscode(passcode, charging: attempts)
    }

    /// Whether too many wrong passcodes erased the class keys and no passcode has been set since: the one
    /// moment with no secret to tell the owner from any other program of the user, read fresh from the keybag.
    public func isErasedAwaitingPasscode() throws(KeystoreError) -> Bool {
        let keybag = try loadKeybag()
        return keybag.erasedAfterFailedAttempts == true && keybag.passcode == nil
    }
}
