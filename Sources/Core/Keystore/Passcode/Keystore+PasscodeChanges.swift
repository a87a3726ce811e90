import Crypto
import KeychainModel

// Setting, changing and removing the passcode, and the owner's erase setting: each needs the passcode
// (but setting the first one) and re-wraps the class keys in the keybag.
extension Keystore {
    /// Sets the first passcode: A and C class keys are re-wrapped under the passcode key and the
    /// `akpu` class key is created. The keychain stays unlocked.
    public func setPasscode(_ passcode: SecretBytes, kdf: PasscodeKDF = .production) throws(KeystoreError) {
        try checkLength(passcode)
        try updateKeybag { keybag throws(KeystoreError) in
            guard keybag.passcode == nil else { throw .passcodeAlreadySet }
            keybag.erasedAfterFailedAttempts = nil
            var classKeys = try unwrapDeviceProtectedClassKeys(keybag)
            classKeys[.whenPasscodeSetThisDeviceOnly] = SymmetricKey(size: .bits256)
            try rewrap(&keybag, classKeys: classKeys, newPasscode: passcode, kdf: kdf)
            return classKeys
        } then: { classKeys in
            transition { state in
                state.passcodeSet = true
                for (protection, key) in classKeys {
                    state.classKeys[protection] = ClassKeyMaterial(classKey: key, protection: protection)
                }
                state.lockState = .unlocked
            }
        }
        logger.info("passcode set")
    }

    /// Changes the passcode: the class keys are re-wrapped under the new passcode key; items are not touched.
    /// A wrong `old` passcode is charged to `attempts` (``unlock(passcode:charging:)``).
    public func changePasscode(
        from old: SecretBytes, to new: SecretBytes, kdf: PasscodeKDF = .production, charging attempts: PasscodeAttempts = .keybag
    ) throws(KeystoreError) {
        try checkLength(new)
        let classKeys = try verifyPasscode(old, charging: attempts)
        try updateKeybag { keybag throws(KeystoreError) in
            try rewrap(&keybag, classKeys: classKeys, newPasscode: new, kdf: kdf)
        } then: { _ in
            transition { state in
                for (protection, key) in classKeys {
                    state.classKeys[protection] = ClassKeyMaterial(classKey: key, protection: protection)
                }
                state.lockState = .unlocked
            }
        }
        logger.info("passcode changed")
    }

    /// Removes the passcode: A and C class keys are re-wrapped under the device key and the `akpu`
    /// class key is destroyed, so `akpu` items can never be read again. A wrong passcode is charged to `attempts`.
    public func removePasscode(current: SecretBytes, charging attempts: PasscodeAttempts = .keybag) throws(KeystoreError) {
        var classKeys = try verifyPasscode(current, charging: attempts)
        classKeys[.whenPasscodeSetThisDeviceOnly] = nil
        try updateKeybag { keybag throws(KeystoreError) in
            try rewrap(&keybag, classKeys: classKeys, newPasscode: nil, kdf: nil)
        } then: { _ in
            transition { state in
                state.passcodeSet = false
                state.classKeys[.whenPasscodeSetThisDeviceOnly] = nil
                for (protection, key) in classKeys {
                    state.classKeys[protection] = ClassKeyMaterial(classKey: key, protection: protection)
                }
                state.lockState = .unlocked
            }
        }
        logger.info("passcode removed")
    }

    /// Turns on or off erasing the class keys after ``ThrottlePolicy/eraseThreshold`` consecutive wrong passcodes.
    /// Needs the passcode; a wrong one is charged to `attempts`.
    public func setEraseAfterFailedAttempts(
        _ enabled: Bool, passcode: SecretBytes, charging attempts: PasscodeAttempts = .keybag
    ) throws(KeystoreError) {
        _ = try verifyPasscode(passcode, charging: attempts)
        try updateKeybag { keybag throws(KeystoreError) in
            keybag.eraseAfterFailedAttempts = enabled
        } then: { _ in
        }
    }

    /// Refuses a new passcode shorter than ``minimumPasscodeLength``.
    func checkLength(_ passcode: SecretBytes) throws(KeystoreError) {
        guard passcode.unicodeScalarCount >= Self.minimumPasscodeLength else {
            throw .passcodeTooShort(minimum: Self.minimumPasscodeLength)
        }
    }
}
