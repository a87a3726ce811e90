import Crypto
import KeychainModel

// Checking a passcode against the keybag: what unlocking, the passcode changes and ``PasscodeVerifier`` share.
extension Keystore {
    private enum AttemptOutcome {
        case verified([ProtectionClass: SymmetricKey])
        case wrong(failedAttempts: Int, erased: Bool, retryAfter: Duration)
    }

    /// Checks a passcode against the keybag and returns every passcode-protected class key. Nothing in
    /// memory changes, unless this attempt erased the keybag.
    ///
    /// During a delay it throws ``KeystoreError/throttled(retryAfter:)`` without running the KDF. Otherwise
    /// the attempt is counted in the keybag before the KDF runs, and a right passcode resets the count; the
    /// failure that reaches ``ThrottlePolicy/eraseThreshold`` with erasing turned on replaces the keybag with
    /// a fresh one and throws ``KeystoreError/erasedAfterFailedAttempts``.
    ///
    /// An attempt charged to a caller (``PasscodeAttempts/caller(_:)``) is counted in memory instead, under
    /// that caller's name: the same delays, for that caller only, and never an erase.
    ///
    /// A read-only keychain (a folder this process cannot write) refuses an attempt charged to the keybag
    /// with ``KeystoreError/readOnly(reason:)`` before the KDF runs: the count cannot be written first, and
    /// allowing uncounted guesses would let anyone who can copy the files read-only guess without delays or
    /// an erase. This is the safe choice; its cost is that passcode-protected items of a read-only keychain
    /// stay locked (items of classes the device key protects, in a keychain without a passcode, are readable).
    func verifyPasscode(_ passcode: SecretBytes, charging attempts: PasscodeAttempts) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        let outcome: AttemptOutcome
        switch attempts {
        case .keybag: outcome = try attemptChargedToKeybag(passcode)
        case .caller(let name): outcome = try attemptChargedToCaller(name, passcode)
        }
        switch outcome {
        case .verified(let classKeys):
            return classKeys
        case .wrong(let failedAttempts, let erased, let retryAfter):
            logger.notice("wrong passcode", metadata: ["failedAttempts": "\(failedAttempts)", "caller": "\(attempts.logName)"])
            guard erased else { throw .wrongPasscode(failedAttempts: failedAttempts, retryAfter: retryAfter) }
            try eraseInMemoryKeys()
            throw .erasedAfterFailedAttempts
        }
    }

    private func attemptChargedToKeybag(_ passcode: SecretBytes) throws(KeystoreError) -> AttemptOutcome {
        try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) -> AttemptOutcome in
            var keybag = try loadKeybag()
            guard let record = keybag.passcode else { throw .noPasscodeSet }
            let wait = remainingDelay(keybag)
            guard wait == .zero else { throw .throttled(retryAfter: wait) }
            let before = keybag
            keybag.failedAttempts += 1
            keybag.lastAttemptTime = clock.now().timeIntervalSince1970
            // Throws ``KeystoreError/readOnly(reason:)`` in a read-only folder: no uncounted attempt.
            try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)

            let key: SymmetricKey
            do throws(KeystoreError) {
                key = try passcodeKey(passcode, record: record)
            } catch {
                // The TPM (or the KDF's parameters) failed before the passcode could be compared: not a guess.
                try? KeybagFile.store(before, to: folder.keybagURL, deviceKey: deviceKey)
                throw error
            }
            if let classKeys = try? unwrapPasscodeProtectedClassKeys(keybag, key: key) {
                keybag.failedAttempts = 0
                keybag.lastAttemptTime = nil
                try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
                return .verified(classKeys)
            }
            if keybag.eraseAfterFailedAttempts, keybag.failedAttempts >= ThrottlePolicy.eraseThreshold {
                var fresh = Self.makeFreshKeybag(deviceKey: deviceKey)
                fresh.erasedAfterFailedAttempts = true
                fresh.boundToTPM = keybag.boundToTPM
                try KeybagFile.store(fresh, to: folder.keybagURL, deviceKey: deviceKey)
                return .wrong(failedAttempts: keybag.failedAttempts, erased: true, retryAfter: .zero)
            }
            return .wrong(
                failedAttempts: keybag.failedAttempts, erased: false,
                retryAfter: throttle.delay(afterFailedAttempts: keybag.failedAttempts))
        }
    }

    /// Counts the attempt in memory under `caller` before the KDF runs; the keybag is only read.
    private func attemptChargedToCaller(_ caller: String, _ passcode: SecretBytes) throws(KeystoreError) -> AttemptOutcome {
        let keybag = try loadKeybag()
        guard let record = keybag.passcode else { throw .noPasscodeSet }
        let now = clock.now().timeIntervalSince1970
        let counted = state.withLock { state in state.callerAttempts.begin(caller, at: now, throttle: throttle) }
        guard case .counted(let failedAttempts) = counted else {
            if case .wait(let wait) = counted { throw .throttled(retryAfter: wait) }
            throw .throttled(retryAfter: .zero)
        }
        // A TPM that fails here throws; the caller's count keeps the attempt.
        let key = try passcodeKey(passcode, record: record)
        if let classKeys = try? unwrapPasscodeProtectedClassKeys(keybag, key: key) {
            state.withLock { $0.callerAttempts.succeeded(caller) }
            return .verified(classKeys)
        }
        return .wrong(failedAttempts: failedAttempts, erased: false, retryAfter: throttle.delay(afterFailedAttempts: failedAttempts))
    }

    private func unwrapPasscodeProtectedClassKeys(_ keybag: Keybag, key: SymmetricKey) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        var classKeys: [ProtectionClass: SymmetricKey] = [:]
        for protection in ProtectionClass.allCases {
            guard let wrapped = keybag.classKeys[protection.rawValue], wrapped.protector == .passcode else { continue }
            classKeys[protection] = try KeyWrap.unwrap(wrapped.wrapped, with: key)
        }
        return classKeys
    }
}
