import Crypto
import CofferDiagnostics
import Foundation
import KeychainModel
import Logging
import Synchronization
import TrustedPlatformModule

/// The key hierarchy of one keychain: the software Secure Enclave.
///
/// It holds the device key, the keybag of class keys, the lock state and the failed-attempt
/// throttle. Layers above it never see a class key: they ask it to wrap or unwrap item keys under a
/// protection class, for a class's metadata key, and for the blind-index key. Every method may be
/// called from any thread; keybag changes are serialised between processes with a file lock.
///
/// Its parts, by folder: `Keybag/` (the keybag file, fresh keybags, re-wrapping), `Passcode/` (checking,
/// setting and changing the passcode, the throttle), `LockState/` (lock, unlock and their observers),
/// `ClassKeys/` (the keys the layers above ask for), `FileKeys/` (the wrap service of protected files,
/// file class B's key pair), `DeviceKey/` and `Files/`.
public final class Keystore: Sendable {
    /// The minimum passcode length, in Unicode scalars.
    public static let minimumPasscodeLength = PasscodePolicy.minimumLength

    /// The folder this keystore lives in.
    public let folder: KeychainFolder
    let deviceKey: DeviceKey
    /// The TPM this keystore was told to use (`COFFER_TPM`), for binding a keychain that is not bound yet.
    public let tpmSelection: TPMSelection
    let clock: any KeystoreClock
    let throttle = ThrottlePolicy()
    let logger = DiagnosticsLevel.logger(label: "coffer.keystore")
    let state: Mutex<State>

    /// What this instance holds in memory, behind ``state``'s lock.
    struct State: Sendable {
        var lockState: LockState
        var passcodeSet: Bool
        var classKeys: [ProtectionClass: ClassKeyMaterial]
        var indexKey: LockedKey
        /// File class B's key pair (the private half still wrapped); nil until a version 1 keybag is upgraded.
        var fileClassB: Keybag.FileClassBKeyPair?
        var observers: [UUID: AsyncStream<LockState>.Continuation] = [:]
        /// Run each time class keys leave memory (``Keystore/whenClassKeysDropped(_:)``).
        var keysDroppedHandlers: [@Sendable () -> Void] = []
        /// Failed attempts charged to callers rather than to the keybag (``PasscodeAttempts/caller(_:)``).
        var callerAttempts = CallerAttemptCounts()
        /// Where the device key came from: a file, or a TPM (which the passcode then goes through).
        var binding: DeviceKeyBinding
        /// Why no TPM could bind this keychain, once asked (``deviceKeyProtection``); nil before, or with a TPM.
        var tpmProbe: String??
    }

    // The labels of the keys derived from the device key, one per purpose (domain separation).
    static let classWrappingLabel = "coffer class-key wrapping v1"
    static let indexWrappingLabel = "coffer index-key wrapping v1"
    static let passcodeKeyLabel = "coffer passcode key v1"

    init(
        folder: KeychainFolder, deviceKey: DeviceKey, binding: DeviceKeyBinding, tpmSelection: TPMSelection, clock: any KeystoreClock,
        keybag: Keybag
    ) throws(KeystoreError) {
        self.folder = folder
        self.deviceKey = deviceKey
        self.tpmSelection = tpmSelection
        self.clock = clock
        let indexKey = try KeyWrap.unwrap(keybag.wrappedIndexKey, with: deviceKey.derivedKey(Self.indexWrappingLabel))
        var classKeys: [ProtectionClass: ClassKeyMaterial] = [:]
        for protection in ProtectionClass.allCases {
            guard let wrapped = keybag.classKeys[protection.rawValue], wrapped.protector == .device else { continue }
            let classKey = try KeyWrap.unwrap(wrapped.wrapped, with: deviceKey.derivedKey(Self.classWrappingLabel))
            classKeys[protection] = ClassKeyMaterial(classKey: classKey, protection: protection)
        }
        let passcodeSet = keybag.passcode != nil
        state = Mutex(
            State(
                lockState: passcodeSet ? .beforeFirstUnlock : .unlocked,
                passcodeSet: passcodeSet, classKeys: classKeys, indexKey: LockedKey(indexKey), fileClassB: keybag.fileClassB,
                binding: binding))
    }

    /// Opens the keychain's keystore in `folder`, creating the folder, the device key and the keybag
    /// when none exist. A keystore with a passcode starts ``LockState/beforeFirstUnlock``.
    ///
    /// A missing device key beside an existing keybag, or a missing keybag beside an existing item
    /// database, is reported as damage: nothing is ever recreated over existing data.
    ///
    /// A read-only keychain (a folder this process cannot write, or a read-only file system) opens
    /// without creating or rewriting any file: the device key and the keybag are only read, and the
    /// lock file is locked read-only (or skipped when absent). A keychain without a passcode is then fully
    /// readable; one with a passcode stays locked, since unlocking must count the attempt first
    /// (``unlock(passcode:charging:)``). Creating a new keychain there throws ``KeystoreError/readOnly(reason:)``.
    ///
    /// `tpm` says which TPM to use (`COFFER_TPM`, by default). A new keychain with a TPM has its device key sealed
    /// by it, and a recovery key waiting to be shown; a keychain bound to a TPM opens only with that TPM, else throws
    /// ``KeystoreError/tpmUnavailable(reason:)`` (its recovery key opens it: ``recover(folder:recoveryKey:passcode:tpm:clock:)``).
    public static func open(
        folder: KeychainFolder, clock: any KeystoreClock = SystemClock(), tpm: TPMSelection = .fromEnvironment()
    ) throws(KeystoreError) -> Keystore {
        try folder.create()
        let keystore = try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) -> Keystore in
            let keybagExists = FileManager.default.fileExists(atPath: folder.keybagURL.path)
            let (deviceKey, binding) = try openDeviceKey(folder: folder, selection: tpm, keybagExists: keybagExists)
            let keybag: Keybag
            if let existing = try KeybagFile.load(from: folder.keybagURL, deviceKey: deviceKey) {
                keybag = existing
            } else {
                guard !FileManager.default.fileExists(atPath: folder.databaseURL.path) else {
                    throw .keybagDamaged(reason: "the file is missing but the item database exists")
                }
                var fresh = makeFreshKeybag(deviceKey: deviceKey)
                fresh.boundToTPM = binding.isTPM ? true : nil
                keybag = fresh
                try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
            }
            return try Keystore(
                folder: folder, deviceKey: deviceKey, binding: binding, tpmSelection: tpm, clock: clock, keybag: keybag)
        }
        keystore.upgradeFileClassBIfNeeded()
        return keystore
    }
}
