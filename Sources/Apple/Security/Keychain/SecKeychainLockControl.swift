import KeychainClient
import KeychainModel

// Lock control under macOS's names and signatures. On Linux there is one keychain per process (the one
// `COFFER_HOME` names), so the keychain argument is always `nil`.

/// Locks the keychain: items protected `…WhenUnlocked` become unreadable (``errSecInteractionNotAllowed``)
/// until the next unlock. Without a passcode the keychain cannot lock, and this does nothing.
@discardableResult
public func SecKeychainLock(_ keychain: SecKeychain?) -> OSStatus {
    KeychainCall.run("SecKeychainLock") { client throws(KeystoreError) in try client.blocking.lock() }
}

/// Unlocks the keychain with its passcode, the `passwordLength` bytes at `password`.
///
/// - A wrong passcode returns ``errSecAuthFailed``; each one counts, and from the fifth in a row the
///   keychain makes you wait before the next attempt (1 minute, growing to 1 hour).
/// - While such a wait runs, the attempt is refused without checking the passcode, and the status is
///   ``errSecInteractionNotAllowed``: "not now", not "wrong passcode", so a caller does not ask for the passcode
///   again. With `COFFER_LOG=debug` the diagnostics say how long to wait.
/// - `usePassword == false` or a nil `password` would show macOS's password dialog; there is none here, so
///   the status is ``errSecInteractionNotAllowed`` too.
/// - A keychain without a passcode is never locked; unlocking it returns ``errSecParam``.
@discardableResult
public func SecKeychainUnlock(
    _ keychain: SecKeychain?, _ passwordLength: UInt32, _ password: UnsafeRawPointer?, _ usePassword: Bool
) -> OSStatus {
    guard usePassword, let password else {
        Diagnostics.log("SecKeychainUnlock(no password: no dialog can be shown)", status: .interactionNotAllowed)
        return errSecInteractionNotAllowed
    }
    let passcode = SecretBytes(copying: UnsafeRawBufferPointer(start: password, count: Int(passwordLength)))
    return KeychainCall.run("SecKeychainUnlock(<redacted \(passwordLength) bytes>)") { client throws(KeystoreError) in
        try client.blocking.unlock(passcode: passcode)
    }
}

/// Reports the keychain's state in `keychainStatus`: always readable and writable, plus
/// ``kSecUnlockStateStatus`` while unlocked (a keychain with a passcode starts locked in each process).
@discardableResult
public func SecKeychainGetStatus(_ keychain: SecKeychain?, _ keychainStatus: UnsafeMutablePointer<SecKeychainStatus>) -> OSStatus {
    var state = kSecReadPermStatus | kSecWritePermStatus
    let status = KeychainCall.run("SecKeychainGetStatus") { client throws(KeystoreError) in
        if try client.blocking.lockStatus().lockState == .unlocked { state |= kSecUnlockStateStatus }
    }
    if status == errSecSuccess { keychainStatus.pointee = state }
    return status
}
