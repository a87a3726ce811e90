import Foundation
import KeychainModel

// The lock state: reading it, observing it, and the transitions between its values.
extension Keystore {
    /// The current lock state.
    public var lockState: LockState { state.withLock { $0.lockState } }

    /// Whether a passcode is set, as this instance knows it.
    public var isPasscodeSet: Bool { state.withLock { $0.passcodeSet } }

    /// The state for people: passcode, lock state, failed attempts and the remaining delay, read fresh from the keybag.
    public func status() throws(KeystoreError) -> KeystoreStatus {
        let keybag = try loadKeybag()
        return KeystoreStatus(
            passcodeSet: keybag.passcode != nil,
            lockState: lockState,
            failedAttempts: keybag.failedAttempts,
            retryAfter: remainingDelay(keybag),
            eraseAfterFailedAttempts: keybag.eraseAfterFailedAttempts,
            deviceKey: deviceKeyProtection)
    }

    /// A stream of lock-state changes, starting with the current state.
    public func lockStateChanges() -> AsyncStream<LockState> {
        let (stream, continuation) = AsyncStream<LockState>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        state.withLock { state in
            state.observers[id] = continuation
            continuation.yield(state.lockState)
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Unlocks with the passcode: A and C class keys become usable.
    ///
    /// During a delay after wrong passcodes this fails at once with ``KeystoreError/throttled(retryAfter:)``
    /// without running the KDF. Every attempt is counted in the keybag before the KDF runs, so
    /// killing the process mid-attempt does not escape the count. ``PasscodeVerifier`` checks a passcode
    /// the same way without unlocking.
    ///
    /// `attempts` says which count a wrong passcode is charged to: the keybag's (a person's attempt, the
    /// default) or, for a passcode a program supplied, that program's own (``PasscodeAttempts``).
    ///
    /// On a read-only keychain an attempt charged to the keybag is refused with
    /// ``KeystoreError/readOnly(reason:)`` before the KDF runs, since its count could not be written
    /// (see `verifyPasscode(_:charging:)`): refusing is safer than allowing uncounted guesses.
    public func unlock(passcode: SecretBytes, charging attempts: PasscodeAttempts = .keybag) throws(KeystoreError) {
        let classKeys = try verifyPasscode(passcode, charging: attempts)
        transition { state in
            for (protection, classKey) in classKeys {
                state.classKeys[protection] = ClassKeyMaterial(classKey: classKey, protection: protection)
            }
            state.lockState = .unlocked
        }
        upgradeFileClassBIfNeeded()
        logger.info("keychain unlocked")
    }

    /// Locks: the A class keys (`ak`, `aku`, `akpu`) are dropped and zeroized, and with `ak` file classes A and
    /// B's private key; C keys stay until the process ends.
    /// Without a passcode there is no locked state, and this does nothing.
    public func lock() {
        var locked = false
        transition { state in
            guard state.passcodeSet, state.lockState == .unlocked else { return }
            for protection in ProtectionClass.allCases where protection.availability == .whenUnlocked {
                state.classKeys[protection] = nil
            }
            state.lockState = .locked
            locked = true
        }
        if locked { classKeysDropped() }
        logger.info("keychain locked")
    }

    /// Registers `handler`, run on the thread that drops class keys, right after they are gone: at every
    /// lock, and when too many wrong passcodes erase the keybag. What a caller keeps that it could only
    /// have made with a class key (an opened token key) is to be forgotten there.
    public func whenClassKeysDropped(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.keysDroppedHandlers.append(handler) }
    }

    /// Runs the handlers of ``whenClassKeysDropped(_:)``, outside the state's lock.
    private func classKeysDropped() {
        for handler in state.withLock({ $0.keysDroppedHandlers }) { handler() }
    }

    /// Changes the in-memory state under its lock, and tells the observers when the lock state changed.
    func transition(_ change: (inout State) -> Void) {
        state.withLock { state in
            let before = state.lockState
            change(&state)
            if state.lockState != before {
                for observer in state.observers.values { observer.yield(state.lockState) }
            }
        }
    }

    /// After the keybag was replaced by a fresh one (too many wrong passcodes): drops every class key held in
    /// memory for the fresh keybag's, and leaves the keychain unlocked without a passcode.
    func eraseInMemoryKeys() throws(KeystoreError) {
        let keybag = try loadKeybag()
        let indexKey = try KeyWrap.unwrap(keybag.wrappedIndexKey, with: deviceKey.derivedKey(Self.indexWrappingLabel))
        var classKeys: [ProtectionClass: ClassKeyMaterial] = [:]
        for (protection, key) in try unwrapDeviceProtectedClassKeys(keybag) {
            classKeys[protection] = ClassKeyMaterial(classKey: key, protection: protection)
        }
        transition { state in
            state.classKeys = classKeys
            state.indexKey = LockedKey(indexKey)
            state.fileClassB = keybag.fileClassB
            state.passcodeSet = false
            state.lockState = .unlocked
        }
        classKeysDropped()
        logger.warning("class keys erased after too many wrong passcodes")
    }
}
