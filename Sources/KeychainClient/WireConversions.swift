import DaemonProtocol
import Keystore

// The daemon protocol mirrors the keystore's error and status types without depending on the
// keystore; these conversions are the one place where the two meet.

extension WireKeystoreError {
    /// The wire form of a keystore error.
    public init(_ error: KeystoreError) {
        switch error {
        case .classUnavailable(let protection): self = .classUnavailable(protection)
        case .classMissing(let protection): self = .classMissing(protection)
        case .wrongPasscode(let failedAttempts, let retryAfter): self = .wrongPasscode(failedAttempts: failedAttempts, retryAfter: retryAfter)
        case .throttled(let retryAfter): self = .throttled(retryAfter: retryAfter)
        case .passcodeTooShort(let minimum): self = .passcodeTooShort(minimum: minimum)
        case .noPasscodeSet: self = .noPasscodeSet
        case .passcodeAlreadySet: self = .passcodeAlreadySet
        case .keybagDamaged(let reason): self = .keybagDamaged(reason: reason)
        case .deviceKeyDamaged(let reason): self = .deviceKeyDamaged(reason: reason)
        case .wrappedKeyCorrupt: self = .wrappedKeyCorrupt
        case .erasedAfterFailedAttempts: self = .erasedAfterFailedAttempts
        case .io(let reason), .unavailable(let reason): self = .io(reason: reason)
        }
    }

    /// The keystore error this wire form stands for.
    public var keystoreError: KeystoreError {
        switch self {
        case .classUnavailable(let protection): .classUnavailable(protection)
        case .classMissing(let protection): .classMissing(protection)
        case .wrongPasscode(let failedAttempts, let retryAfter): .wrongPasscode(failedAttempts: failedAttempts, retryAfter: retryAfter)
        case .throttled(let retryAfter): .throttled(retryAfter: retryAfter)
        case .passcodeTooShort(let minimum): .passcodeTooShort(minimum: minimum)
        case .noPasscodeSet: .noPasscodeSet
        case .passcodeAlreadySet: .passcodeAlreadySet
        case .keybagDamaged(let reason): .keybagDamaged(reason: reason)
        case .deviceKeyDamaged(let reason): .deviceKeyDamaged(reason: reason)
        case .wrappedKeyCorrupt: .wrappedKeyCorrupt
        case .erasedAfterFailedAttempts: .erasedAfterFailedAttempts
        case .io(let reason): .io(reason: reason)
        }
    }
}

extension WireKeystoreStatus {
    /// The wire form of a keystore status.
    public init(_ status: KeystoreStatus) {
        self.init(
            passcodeSet: status.passcodeSet, lockState: WireLockState(rawValue: status.lockState.rawValue) ?? .locked,
            failedAttempts: status.failedAttempts, retryAfter: status.retryAfter,
            eraseAfterFailedAttempts: status.eraseAfterFailedAttempts)
    }

    /// The keystore status this wire form stands for.
    public var keystoreStatus: KeystoreStatus {
        KeystoreStatus(
            passcodeSet: passcodeSet, lockState: LockState(rawValue: lockState.rawValue) ?? .locked,
            failedAttempts: failedAttempts, retryAfter: retryAfter, eraseAfterFailedAttempts: eraseAfterFailedAttempts)
    }
}
