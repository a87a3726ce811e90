import Crypto
import CofferDiagnostics
import Foundation
import KeychainModel
import Logging
import Synchronization

/// The key hierarchy of one keychain: the software Secure Enclave.
///
/// It holds the device key, the keybag of class keys, the lock state and the failed-attempt
/// throttle. Layers above it never see a class key: they ask it to wrap or unwrap item keys under a
/// protection class, for a class's metadata key, and for the blind-index key. Every method may be
/// called from any thread; keybag changes are serialised between processes with a file lock.
public final class Keystore: Sendable {
    /// The minimum passcode length, in Unicode scalars.
    public static let minimumPasscodeLength = PasscodePolicy.minimumLength

    /// The folder this keystore lives in.
    public let folder: KeychainFolder
    private let deviceKey: DeviceKey
    private let clock: any KeystoreClock
    private let throttle = ThrottlePolicy()
    private let logger = DiagnosticsLevel.logger(label: "coffer.keystore")
    private let state: Mutex<State>

    private struct State: Sendable {
        var lockState: LockState
        var passcodeSet: Bool
        var classKeys: [ProtectionClass: ClassKeyMaterial]
        var indexKey: SymmetricKey
        var observers: [UUID: AsyncStream<LockState>.Continuation] = [:]
    }

    private init(folder: KeychainFolder, deviceKey: DeviceKey, clock: any KeystoreClock, keybag: Keybag) throws(KeystoreError) {
        self.folder = folder
        self.deviceKey = deviceKey
        self.clock = clock
        let indexKey = try Self.unwrap(keybag.wrappedIndexKey, with: deviceKey.derivedKey(Self.indexWrappingLabel))
        var classKeys: [ProtectionClass: ClassKeyMaterial] = [:]
        for protection in ProtectionClass.allCases {
            guard let wrapped = keybag.classKeys[protection.rawValue], wrapped.protector == .device else { continue }
            let classKey = try Self.unwrap(wrapped.wrapped, with: deviceKey.derivedKey(Self.classWrappingLabel))
            classKeys[protection] = ClassKeyMaterial(classKey: classKey, protection: protection)
        }
        let passcodeSet = keybag.passcode != nil
        state = Mutex(State(
            lockState: passcodeSet ? .beforeFirstUnlock : .unlocked,
            passcodeSet: passcodeSet, classKeys: classKeys, indexKey: indexKey))
    }

    /// Opens the keychain's keystore in `folder`, creating the folder, the device key and the keybag
    /// when none exist. A keystore with a passcode starts ``LockState/beforeFirstUnlock``.
    ///
    /// A missing device key beside an existing keybag, or a missing keybag beside an existing item
    /// database, is reported as damage: nothing is ever recreated over existing data.
    public static func open(folder: KeychainFolder, clock: any KeystoreClock = SystemClock()) throws(KeystoreError) -> Keystore {
        try folder.create()
        return try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) -> Keystore in
            let existingDeviceKey = try DeviceKey.load(from: folder.deviceKeyURL)
            let keybagExists = FileManager.default.fileExists(atPath: folder.keybagURL.path)
            let deviceKey: DeviceKey
            switch (existingDeviceKey, keybagExists) {
            case (nil, true):
                throw .deviceKeyDamaged(reason: "the file is missing but the keybag exists")
            case (nil, false):
                deviceKey = try DeviceKey.create(at: folder.deviceKeyURL)
            case (let key?, _):
                deviceKey = key
            }
            let keybag: Keybag
            if let existing = try KeybagFile.load(from: folder.keybagURL, deviceKey: deviceKey) {
                keybag = existing
            } else {
                guard !FileManager.default.fileExists(atPath: folder.databaseURL.path) else {
                    throw .keybagDamaged(reason: "the file is missing but the item database exists")
                }
                keybag = makeFreshKeybag(deviceKey: deviceKey)
                try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
            }
            return try Keystore(folder: folder, deviceKey: deviceKey, clock: clock, keybag: keybag)
        }
    }

    // MARK: - Lock state

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
            eraseAfterFailedAttempts: keybag.eraseAfterFailedAttempts)
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
    /// killing the process mid-attempt does not escape the count.
    public func unlock(passcode: SecretBytes) throws(KeystoreError) {
        let classKeys = try verifyPasscode(passcode)
        transition { state in
            for (protection, classKey) in classKeys {
                state.classKeys[protection] = ClassKeyMaterial(classKey: classKey, protection: protection)
            }
            state.lockState = .unlocked
        }
        logger.info("keychain unlocked")
    }

    /// Locks: the A class keys (`ak`, `aku`, `akpu`) are dropped and zeroized; C keys stay until the process ends.
    /// Without a passcode there is no locked state, and this does nothing.
    public func lock() {
        transition { state in
            guard state.passcodeSet, state.lockState == .unlocked else { return }
            for protection in ProtectionClass.allCases where protection.availability == .whenUnlocked {
                state.classKeys[protection] = nil
            }
            state.lockState = .locked
        }
        logger.info("keychain locked")
    }

    // MARK: - Passcode changes

    /// Sets the first passcode: A and C class keys are re-wrapped under the passcode key and the
    /// `akpu` class key is created. The keychain stays unlocked.
    public func setPasscode(_ passcode: SecretBytes, kdf: PasscodeKDF = .production) throws(KeystoreError) {
        try checkLength(passcode)
        try updateKeybag { keybag throws(KeystoreError) in
            guard keybag.passcode == nil else { throw .passcodeAlreadySet }
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
    public func changePasscode(from old: SecretBytes, to new: SecretBytes, kdf: PasscodeKDF = .production) throws(KeystoreError) {
        try checkLength(new)
        let classKeys = try verifyPasscode(old)
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
    /// class key is destroyed, so `akpu` items can never be read again.
    public func removePasscode(current: SecretBytes) throws(KeystoreError) {
        var classKeys = try verifyPasscode(current)
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
    /// Needs the passcode.
    public func setEraseAfterFailedAttempts(_ enabled: Bool, passcode: SecretBytes) throws(KeystoreError) {
        _ = try verifyPasscode(passcode)
        try updateKeybag { keybag throws(KeystoreError) in keybag.eraseAfterFailedAttempts = enabled } then: { _ in }
    }

    // MARK: - Keys for the layers above

    /// Wraps a per-item key under the class key of `protection`.
    public func wrapItemKey(_ key: SymmetricKey, protection: ProtectionClass) throws(KeystoreError) -> Data {
        let material = try usableClassKey(protection)
        do {
            return try AES.KeyWrap.wrap(key, using: material.itemKeyWrapping)
        } catch {
            throw .wrappedKeyCorrupt
        }
    }

    /// Unwraps a per-item key wrapped under the class key of `protection`.
    public func unwrapItemKey(_ wrapped: Data, protection: ProtectionClass) throws(KeystoreError) -> SymmetricKey {
        let material = try usableClassKey(protection)
        return try Self.unwrap(wrapped, with: material.itemKeyWrapping)
    }

    /// The key that seals item attributes of `protection`; available exactly when the class key is.
    public func metadataKey(for protection: ProtectionClass) throws(KeystoreError) -> SymmetricKey {
        try usableClassKey(protection).metadata
    }

    /// The blind-index key: protected by the device key alone, so matching and delete work in every lock state.
    public func indexKey() -> SymmetricKey { state.withLock { $0.indexKey } }

    // MARK: - Internals

    private static let classWrappingLabel = "coffer class-key wrapping v1"
    private static let indexWrappingLabel = "coffer index-key wrapping v1"
    private static let passcodeKeyLabel = "coffer passcode key v1"

    private func usableClassKey(_ protection: ProtectionClass) throws(KeystoreError) -> ClassKeyMaterial {
        let (material, passcodeSet) = state.withLock { ($0.classKeys[protection], $0.passcodeSet) }
        if let material { return material }
        if protection == .whenPasscodeSetThisDeviceOnly, !passcodeSet { throw .classMissing(protection) }
        throw .classUnavailable(protection)
    }

    private func transition(_ change: (inout State) -> Void) {
        state.withLock { state in
            let before = state.lockState
            change(&state)
            if state.lockState != before {
                for observer in state.observers.values { observer.yield(state.lockState) }
            }
        }
    }

    private func checkLength(_ passcode: SecretBytes) throws(KeystoreError) {
        guard passcode.unicodeScalarCount >= Self.minimumPasscodeLength else {
            throw .passcodeTooShort(minimum: Self.minimumPasscodeLength)
        }
    }

    private func loadKeybag() throws(KeystoreError) -> Keybag {
        guard let keybag = try KeybagFile.load(from: folder.keybagURL, deviceKey: deviceKey) else {
            throw .keybagDamaged(reason: "the file is missing")
        }
        return keybag
    }

    /// Read-modify-write of the keybag under the inter-process lock; `apply` runs after the write succeeded.
    private func updateKeybag<Result>(
        _ change: (inout Keybag) throws(KeystoreError) -> Result,
        then apply: (Result) -> Void
    ) throws(KeystoreError) {
        let result = try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) -> Result in
            var keybag = try loadKeybag()
            let result = try change(&keybag)
            try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
            return result
        }
        apply(result)
    }

    private func remainingDelay(_ keybag: Keybag) -> Duration {
        guard let last = keybag.lastAttemptTime else { return .zero }
        let delay = throttle.delay(afterFailedAttempts: keybag.failedAttempts)
        let elapsed = clock.now().timeIntervalSince1970 - last
        let remaining = Double(delay.components.seconds) - max(elapsed, 0)
        return remaining > 0 ? .milliseconds(Int64((remaining * 1000).rounded(.up))) : .zero
    }

    private enum AttemptOutcome {
        case verified([ProtectionClass: SymmetricKey])
        case wrong(failedAttempts: Int, erased: Bool, retryAfter: Duration)
    }

    /// Checks a passcode against the keybag and returns every passcode-protected class key.
    private func verifyPasscode(_ passcode: SecretBytes) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        let outcome = try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) -> AttemptOutcome in
            var keybag = try loadKeybag()
            guard let record = keybag.passcode else { throw .noPasscodeSet }
            let wait = remainingDelay(keybag)
            guard wait == .zero else { throw .throttled(retryAfter: wait) }
            keybag.failedAttempts += 1
            keybag.lastAttemptTime = clock.now().timeIntervalSince1970
            try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)

            if let classKeys = try? unwrapPasscodeProtectedClassKeys(keybag, record: record, passcode: passcode) {
                keybag.failedAttempts = 0
                keybag.lastAttemptTime = nil
                try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
                return .verified(classKeys)
            }
            if keybag.eraseAfterFailedAttempts, keybag.failedAttempts >= ThrottlePolicy.eraseThreshold {
                let fresh = Self.makeFreshKeybag(deviceKey: deviceKey)
                try KeybagFile.store(fresh, to: folder.keybagURL, deviceKey: deviceKey)
                return .wrong(failedAttempts: keybag.failedAttempts, erased: true, retryAfter: .zero)
            }
            return .wrong(
                failedAttempts: keybag.failedAttempts, erased: false,
                retryAfter: throttle.delay(afterFailedAttempts: keybag.failedAttempts))
        }
        switch outcome {
        case .verified(let classKeys):
            return classKeys
        case .wrong(let failedAttempts, let erased, let retryAfter):
            logger.notice("wrong passcode", metadata: ["failedAttempts": "\(failedAttempts)"])
            guard erased else { throw .wrongPasscode(failedAttempts: failedAttempts, retryAfter: retryAfter) }
            try eraseInMemoryKeys()
            throw .erasedAfterFailedAttempts
        }
    }

    private func eraseInMemoryKeys() throws(KeystoreError) {
        let keybag = try loadKeybag()
        let indexKey = try Self.unwrap(keybag.wrappedIndexKey, with: deviceKey.derivedKey(Self.indexWrappingLabel))
        var classKeys: [ProtectionClass: ClassKeyMaterial] = [:]
        for (protection, key) in try unwrapDeviceProtectedClassKeys(keybag) {
            classKeys[protection] = ClassKeyMaterial(classKey: key, protection: protection)
        }
        transition { state in
            state.classKeys = classKeys
            state.indexKey = indexKey
            state.passcodeSet = false
            state.lockState = .unlocked
        }
        logger.warning("class keys erased after too many wrong passcodes")
    }

    private func passcodeKey(_ passcode: SecretBytes, record: Keybag.PasscodeRecord) throws(KeystoreError) -> SymmetricKey {
        let stretched: SymmetricKey
        do {
            stretched = try record.kdf.stretch(passcode, salt: record.salt)
        } catch {
            throw .keybagDamaged(reason: "its passcode parameters are not usable")
        }
        return deviceKey.derivedKey(Self.passcodeKeyLabel, salt: stretched)
    }

    private func unwrapPasscodeProtectedClassKeys(
        _ keybag: Keybag, record: Keybag.PasscodeRecord, passcode: SecretBytes
    ) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        let key = try passcodeKey(passcode, record: record)
        var classKeys: [ProtectionClass: SymmetricKey] = [:]
        for protection in ProtectionClass.allCases {
            guard let wrapped = keybag.classKeys[protection.rawValue], wrapped.protector == .passcode else { continue }
            classKeys[protection] = try Self.unwrap(wrapped.wrapped, with: key)
        }
        return classKeys
    }

    private func unwrapDeviceProtectedClassKeys(_ keybag: Keybag) throws(KeystoreError) -> [ProtectionClass: SymmetricKey] {
        let key = deviceKey.derivedKey(Self.classWrappingLabel)
        var classKeys: [ProtectionClass: SymmetricKey] = [:]
        for protection in ProtectionClass.allCases {
            guard let wrapped = keybag.classKeys[protection.rawValue], wrapped.protector == .device else { continue }
            classKeys[protection] = try Self.unwrap(wrapped.wrapped, with: key)
        }
        return classKeys
    }

    /// Re-wraps A and C class keys (and `akpu` when present) under a new passcode key, or under the
    /// device key when `newPasscode` is nil. D class keys stay under the device key.
    private func rewrap(
        _ keybag: inout Keybag, classKeys: [ProtectionClass: SymmetricKey], newPasscode: SecretBytes?, kdf: PasscodeKDF?
    ) throws(KeystoreError) {
        var protectorKey = deviceKey.derivedKey(Self.classWrappingLabel)
        var protector = Keybag.Protector.device
        keybag.passcode = nil
        if let newPasscode, let kdf {
            let record = Keybag.PasscodeRecord(salt: Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }), kdf: kdf)
            protectorKey = try passcodeKey(newPasscode, record: record)
            protector = .passcode
            keybag.passcode = record
        }
        keybag.classKeys[ProtectionClass.whenPasscodeSetThisDeviceOnly.rawValue] = nil
        for (protection, classKey) in classKeys where protection.availability != .always {
            keybag.classKeys[protection.rawValue] = Keybag.WrappedClassKey(
                protector: protector, wrapped: try Self.wrap(classKey, with: protectorKey))
        }
        keybag.failedAttempts = 0
        keybag.lastAttemptTime = nil
    }

    private static func makeFreshKeybag(deviceKey: DeviceKey) -> Keybag {
        let wrappingKey = deviceKey.derivedKey(classWrappingLabel)
        var classKeys: [String: Keybag.WrappedClassKey] = [:]
        for protection in ProtectionClass.allCases where protection != .whenPasscodeSetThisDeviceOnly {
            // A fresh 256-bit key always wraps; a failure here would be a broken crypto library.
            let wrapped = try! AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: wrappingKey)
            classKeys[protection.rawValue] = Keybag.WrappedClassKey(protector: .device, wrapped: wrapped)
        }
        let index = try! AES.KeyWrap.wrap(SymmetricKey(size: .bits256), using: deviceKey.derivedKey(indexWrappingLabel))
        return Keybag(classKeys: classKeys, wrappedIndexKey: index)
    }

    private static func wrap(_ key: SymmetricKey, with wrappingKey: SymmetricKey) throws(KeystoreError) -> Data {
        do { return try AES.KeyWrap.wrap(key, using: wrappingKey) } catch { throw .wrappedKeyCorrupt }
    }

    private static func unwrap(_ wrapped: Data, with wrappingKey: SymmetricKey) throws(KeystoreError) -> SymmetricKey {
        do { return try AES.KeyWrap.unwrap(wrapped, using: wrappingKey) } catch { throw .wrappedKeyCorrupt }
    }
}
