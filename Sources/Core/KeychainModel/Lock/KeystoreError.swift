/// Why a keystore operation failed. Messages never contain a passcode or key material.
public enum KeystoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class key is not usable in the current lock state (maps to `errSecInteractionNotAllowed`).
    case classUnavailable(ProtectionClass)
    /// The class has no key: `akpu` while no passcode is set (maps to `errSecNotAvailable`).
    case classMissing(ProtectionClass)
    /// The passcode was wrong; `failedAttempts` counts consecutive failures, and `retryAfter` is the wait before the next try.
    case wrongPasscode(failedAttempts: Int, retryAfter: Duration)
    /// Too many wrong passcodes: no attempt is accepted until the delay has passed (maps to `errSecInteractionNotAllowed`).
    case throttled(retryAfter: Duration)
    /// The new passcode is shorter than the minimum.
    case passcodeTooShort(minimum: Int)
    /// The operation needs a passcode, and none is set.
    case noPasscodeSet
    /// A passcode is already set: change it instead.
    case passcodeAlreadySet
    /// The keybag failed its integrity check or could not be parsed.
    case keybagDamaged(reason: String)
    /// The device key file is damaged or missing while a keybag exists.
    case deviceKeyDamaged(reason: String)
    /// A wrapped item key did not unwrap under its class key.
    case wrappedKeyCorrupt
    /// The class keys were erased after too many wrong passcodes.
    case erasedAfterFailedAttempts
    /// A file operation failed.
    case io(reason: String)
    /// The keychain (its daemon) cannot be reached.
    case unavailable(reason: String)
    /// The calling task was cancelled before the call took effect (maps to `errSecUserCanceled`).
    case cancelled
    /// The caller may not make this call: through the daemon, only trusted front ends unlock, lock, or
    /// handle the passcode (maps to `errSecMissingEntitlement`). `reason` says who may.
    case notPermitted(reason: String)
    /// The keychain's files cannot be written by this process (a read-only folder or file system), so the
    /// change was refused before anything was written (maps to `errSecReadOnly`). `reason` names what is
    /// read-only.
    case readOnly(reason: String)
    /// The call is the owner's to make (locking, starting the prompt agent): through the system daemon the
    /// connection first proves the keychain passcode with ``Request/proveOwner(passcode:)``, or the call
    /// comes from whom the daemon trusts for it (maps to `errSecAuthFailed`). `reason` says what is needed.
    case ownerProofRequired(reason: String)
    /// The keychain is bound to a TPM that cannot be used: tpm2-tss or the TPM is missing, `COFFER_TPM` is `none`,
    /// or the TPM answers with another storage root key (another machine's, or this one's after a clear). `reason`
    /// says which, and that the recovery key opens the keychain (maps to `errSecNotAvailable`).
    case tpmUnavailable(reason: String)
    /// The recovery key given does not open this keychain (maps to `errSecAuthFailed`).
    case wrongRecoveryKey

    /// The Apple status an engine reports for this error.
    public var status: KeychainStatus {
        switch self {
        case .classUnavailable: .interactionNotAllowed
        case .classMissing: .notAvailable
        case .wrongPasscode, .erasedAfterFailedAttempts: .authFailed
        // The passcode was not even checked: "not now" rather than "wrong", so callers do not re-prompt.
        case .throttled: .interactionNotAllowed
        case .passcodeTooShort, .noPasscodeSet, .passcodeAlreadySet: .param
        case .keybagDamaged, .deviceKeyDamaged: .notAvailable
        case .wrappedKeyCorrupt: .decode
        case .io: .io
        case .unavailable: .notAvailable
        case .cancelled: .userCanceled
        case .notPermitted: .missingEntitlement
        case .readOnly: .readOnly
        case .ownerProofRequired: .authFailed
        case .tpmUnavailable: .notAvailable
        case .wrongRecoveryKey: .authFailed
        }
    }

    public var description: String {
        switch self {
        case .classUnavailable(let protection):
            "the keychain is locked: items of class \(protection.rawValue) cannot be used until it is unlocked"
        case .classMissing(let protection):
            "class \(protection.rawValue) has no key because no passcode is set"
        case .wrongPasscode(let failedAttempts, let retryAfter):
            retryAfter > .zero
                ? "wrong passcode (\(failedAttemptsText(failedAttempts))); wait \(retryAfter.wholeSeconds) seconds before trying again"
                : "wrong passcode (\(failedAttemptsText(failedAttempts)))"
        case .throttled(let retryAfter):
            "too many wrong passcodes: wait \(retryAfter.wholeSeconds) seconds before trying again"
        case .passcodeTooShort(let minimum):
            "the passcode is too short: use at least \(minimum) characters"
        case .noPasscodeSet:
            "no passcode is set"
        case .passcodeAlreadySet:
            "a passcode is already set; use 'change' to replace it"
        case .keybagDamaged(let reason):
            "the keybag is damaged (\(reason)); it was left untouched"
        case .deviceKeyDamaged(let reason):
            "the device key file is damaged (\(reason)); it was left untouched"
        case .wrappedKeyCorrupt:
            "a stored item key failed its integrity check"
        case .erasedAfterFailedAttempts:
            "the class keys were erased after too many wrong passcodes; the keychain's items are gone"
        case .io(let reason):
            "file error: \(reason)"
        case .unavailable(let reason):
            "the keychain is not available: \(reason)"
        case .cancelled:
            "the call was cancelled before it took effect"
        case .notPermitted(let reason):
            "not permitted: \(reason)"
        case .readOnly(let reason):
            "this keychain cannot be modified: \(reason)"
        case .ownerProofRequired(let reason):
            "only the keychain's owner may do this: \(reason)"
        case .tpmUnavailable(let reason):
            "the keychain's TPM cannot be used: \(reason)"
        case .wrongRecoveryKey:
            "the recovery key does not open this keychain"
        }
    }
}

private func failedAttemptsText(_ count: Int) -> String {
    count == 1 ? "1 failed attempt" : "\(count) failed attempts in a row"
}

extension Duration {
    /// The duration in whole seconds, rounded up, for messages.
    public var wholeSeconds: Int64 {
        let (seconds, attoseconds) = components
        return attoseconds > 0 ? seconds + 1 : seconds
    }
}
