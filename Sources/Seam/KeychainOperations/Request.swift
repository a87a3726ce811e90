import KeychainModel
import Query

/// Everything a front end can ask of a keychain: one list, the same in this process and through the
/// daemon.
///
/// The item operations carry the caller's dictionaries untouched: the keychain side parses them with
/// `QueryParser`, so every rule and status is the same wherever the keychain runs. Passcodes travel as
/// ``SecretBytes``, which zeroize themselves when released.
///
/// Each request is answered with one ``Response``:
///
/// | request | success | failure |
/// | --- | --- | --- |
/// | ``add(_:)``, ``copyMatching(_:)`` | ``Response/value(_:)`` | ``Response/status(_:)``, ``Response/failure(_:reason:)`` |
/// | ``addEach(_:)`` | ``Response/addOutcomes(_:)`` | ``Response/status(_:)``, ``Response/failure(_:reason:)`` |
/// | ``update(query:attributesToUpdate:)``, ``delete(_:)`` | `.value(nil)` | ``Response/status(_:)``, ``Response/failure(_:reason:)`` |
/// | ``lockStatus`` | ``Response/lockStatus(_:)`` | ``Response/keystoreError(_:)`` |
/// | ``unlock(passcode:)``, ``lock``, the passcode changes | `.status(.success)` | ``Response/keystoreError(_:)`` |
/// | ``appsList`` | ``Response/apps(_:)`` | ``Response/failure(_:reason:)`` |
/// | ``appsAdd(_:passcode:)``, ``appsRemove(_:passcode:)`` | ``Response/apps(_:)`` | ``Response/keystoreError(_:)``, ``Response/failure(_:reason:)`` |
/// | ``unlockWithPrompt``, ``answerPrompt(id:passcode:)`` | `.status(.success)` | ``Response/keystoreError(_:)`` |
/// | ``awaitPrompt`` | ``Response/prompt(_:)`` | ``Response/keystoreError(_:)`` |
/// | ``authenticate(_:)`` | `.status(.success)` | ``Response/authenticationFailure(_:)`` |
/// | ``setCredential(context:applicationPassword:)``, ``invalidateContext(_:)`` | `.status(.success)` | — |
/// | ``authenticationCapabilities`` | ``Response/authenticationCapabilities(_:)`` | ``Response/keystoreError(_:)`` |
/// | ``createTokenKey(_:)`` | ``Response/tokenKey(_:)`` | ``Response/failure(_:reason:)`` |
/// | ``useTokenKey(_:)`` | ``Response/value(_:)`` (`.data`) | ``Response/failure(_:reason:)``, ``Response/authenticationNeeded(_:)`` |
/// | ``makeFileKey(_:)``, ``unwrapFileKey(_:)`` | ``Response/fileKey(_:)`` | ``Response/keystoreError(_:)`` |
/// | ``exportBackup(_:)`` | ``Response/backup(_:)`` | ``Response/keystoreError(_:)``, ``Response/failure(_:reason:)`` |
/// | ``stageRestore(_:)`` | `.status(.success)` | ``Response/failure(_:reason:)`` |
/// | ``restoreBackup(_:)`` | ``Response/restoreReport(_:)`` | ``Response/failure(_:reason:)`` |
/// | ``syncState(changedFrom:)`` | ``Response/syncState(_:)`` | ``Response/failure(_:reason:)`` |
/// | ``syncNow`` | ``Response/syncReport(_:)`` | ``Response/failure(_:reason:)`` |
/// | ``syncAccount(_:)`` | ``Response/syncAccount(_:)`` | ``Response/failure(_:reason:)``, ``Response/keystoreError(_:)`` |
///
/// Through the daemon, only trusted front ends (the `coffer` command installed with its own group, and
/// its prompt agent) may send a passcode, lock, or edit the registry; other programs ask the person with
/// ``unlockWithPrompt``.
///
/// Registry edits carry the keychain passcode: the keychain verifies it (counting failures like any
/// unlock), so a program of the user cannot register itself behind the user's back. The registry lives
/// in the daemon; the embedded keychain refuses the `apps…` requests.
///
/// Adding an operation is one case here, one branch in the keychain service's handler and one case in
/// the daemon protocol's codec.
public enum Request: Sendable, Equatable {
    /// `SecItemAdd`.
    case add(QueryDictionary)
    /// Many `SecItemAdd`s in one transaction (a bulk import), at most ``maximumAddEachCount``: each item is
    /// added or answered with its own status (a duplicate, a refused dictionary), in order, in
    /// ``Response/addOutcomes(_:)``. Return flags are ignored. A failure of the store itself adds nothing and
    /// answers the whole request.
    case addEach([QueryDictionary])
    /// `SecItemCopyMatching`.
    case copyMatching(QueryDictionary)
    /// `SecItemUpdate`.
    case update(query: QueryDictionary, attributesToUpdate: QueryDictionary)
    /// `SecItemDelete`.
    case delete(QueryDictionary)
    /// The keystore's passcode, lock state and throttle.
    case lockStatus
    /// Unlocks the caller's keychain with its passcode.
    case unlock(passcode: SecretBytes)
    /// Locks the caller's keychain.
    case lock
    /// Lists the entitlements registry.
    case appsList
    /// Adds an entry to the entitlements registry; needs the keychain passcode.
    case appsAdd(AppRegistration, passcode: SecretBytes)
    /// Removes an entry from the entitlements registry; needs the keychain passcode.
    case appsRemove(AppSelector, passcode: SecretBytes)
    /// Sets the first passcode.
    case setPasscode(new: SecretBytes)
    /// Changes the passcode.
    case changePasscode(old: SecretBytes, new: SecretBytes)
    /// Removes the passcode (destroying the WhenPasscodeSetThisDeviceOnly class).
    case removePasscode(current: SecretBytes)
    /// Turns erasing after ten wrong passcodes on or off.
    case setEraseAfterFailedAttempts(Bool, passcode: SecretBytes)
    /// Unlocks the caller's keychain with a passcode the person types into the daemon's prompt agent; the
    /// caller never sees the passcode. Answered when the person has unlocked or cancelled.
    case unlockWithPrompt
    /// Proves this connection is the keychain's owner by the keychain passcode (a wrong one is charged to the
    /// caller's count, as an unlock's is). Through the system daemon the owner's calls (``lock``, starting the
    /// prompt agent with ``awaitPrompt``) need a proven connection once a passcode is set; the proof lasts
    /// as long as the connection. Reserved to trusted front ends.
    case proveOwner(passcode: SecretBytes)
    /// Proves this connection is the keychain's owner through the prompt agent: the daemon asks the person for
    /// the passcode, saying who asks and `reason` (for a program with no terminal, such as the SSH agent started
    /// by systemd). Reserved to trusted front ends; answered once the person has.
    case proveOwnerWithPrompt(reason: String)
    /// The prompt agent's standing request: answered with the next ``Prompt`` for this user.
    case awaitPrompt
    /// The prompt agent's answer to a ``Prompt``: the passcode the person typed, or nil when they cancelled.
    case answerPrompt(id: UInt64, passcode: SecretBytes?)
    /// Asks the person to prove their presence for an `LAContext`; the proof is kept for this connection
    /// under the context's identifier. Answered with success or an ``Response/authenticationFailure(_:)``.
    case authenticate(AuthenticationRequest)
    /// `LAContext.setCredential(_:type: .applicationPassword)`: the application password the context's item
    /// calls use (nil removes it). Kept for this connection, like a proof.
    case setCredential(context: AuthenticationContextID, applicationPassword: SecretBytes?)
    /// `LAContext.invalidate()`: forgets the context's proofs and credential.
    case invalidateContext(AuthenticationContextID)
    /// What the keychain can authenticate with now (passcode, biometry).
    case authenticationCapabilities
    /// Makes a private key that never leaves the keychain (`kSecAttrTokenIDSecureEnclave`); answered with
    /// ``Response/tokenKey(_:)``. Nothing is stored: the caller adds the key item if it wants one.
    case createTokenKey(TokenKeyCreation)
    /// Uses such a key: answered with `.value(.data(result))`, or ``Response/authenticationNeeded(_:)``
    /// when its access control needs the person first.
    case useTokenKey(TokenKeyUse)
    /// Makes a fresh key for a protected file, wrapped under the class key of its file protection class;
    /// answered with ``Response/fileKey(_:)``. Nothing is stored. Class B needs only its public key, so it
    /// works while the keychain is locked.
    case makeFileKey(FileProtectionClass)
    /// Unwraps a protected file's key; answered with ``Response/fileKey(_:)``, or
    /// ``KeystoreError/classUnavailable(_:)`` while its class key is not usable (a locked keychain).
    case unwrapFileKey(WrappedFileKey)
    /// Reads every item of the caller's groups that may leave the device (not `…ThisDeviceOnly`, not
    /// `akpu`, not a token or non-extractable key, not bound to this device), inside the service; answered with
    /// ``Response/backup(_:)``. Needs the passcode when one is set, and an unlocked keychain.
    case exportBackup(BackupExport)
    /// Keeps one part of a backup's records in the keychain service, for the caller that sent it, until a
    /// ``restoreBackup(_:)`` naming its staging identifier writes them all; answered with `.status(.success)`.
    /// Staged bytes are bounded per caller and in all (`errSecAllocate`, -108, beyond), and dropped when the
    /// caller's connection closes or no part came for two minutes. Nothing is written until the restore.
    case stageRestore(RestorePart)
    /// Writes a backup's items in one transaction, re-encrypted under this keychain's keys, applying the
    /// conflict policy; answered with ``Response/restoreReport(_:)``. Every record is checked before anything
    /// is written, and nothing is written when one is refused.
    case restoreBackup(BackupRestore)
    /// What the keychain knows of its sync (``SyncState``); answered with ``Response/syncState(_:)``. With a
    /// state the caller already has, the daemon answers once the state differs from it or after
    /// ``syncStateWaitLimit``, whichever comes first (a long poll, for ``SyncState`` updates); the embedded
    /// keychain answers at once.
    case syncState(changedFrom: SyncState?)
    /// Runs sync now and answers with its ``Response/syncReport(_:)``: the daemon's background sync runs at once
    /// and the answer comes when that run ends. A keychain that has not joined an account is `errSecNotAvailable`;
    /// a run that failed (the server away, a refused password) is `errSecIO` with the reason; the embedded
    /// keychain, which syncs when `coffer sync now` runs, is `errSecUnimplemented`.
    case syncNow
    /// Sets up, joins, approves, lists, removes or leaves a sync account (``SyncAccountRequest``), answered with
    /// ``Response/syncAccount(_:)``: what `coffer sync` does for a keychain served by cofferd. Reserved to trusted
    /// front ends and, once a passcode is set, to a connection that proved it. The embedded keychain refuses it with
    /// `errSecUnimplemented` (`coffer sync` opens an embedded keychain itself).
    case syncAccount(SyncAccountRequest)
    /// Moves the device key into the TPM or back, shows or renews the recovery key, or recovers a keychain its TPM no
    /// longer opens (``DeviceKeyBindingChange``): what `coffer keystore bind-tpm`, `unbind-tpm`, `recovery-key` and
    /// `recover` send. Answered with ``Response/recoveryKey(_:)`` (binding, the recovery key) or a status. Reserved to
    /// trusted front ends.
    case deviceKeyBinding(DeviceKeyBindingChange)

    /// Reads the audit journal: records after a sequence number, and whether the journal verifies. Needs the
    /// passcode when one is set; answered with ``Response/auditPage(_:)``. Reserved to trusted front ends.
    case auditRecords(AuditRead)

    /// Reads, or changes, whether secret reads the audit journal cannot record are refused. Needs the passcode when
    /// one is set; answered with the setting as ``Response/value(_:)`` (a Boolean). Reserved to trusted front ends.
    case auditSetting(AuditSetting)

    /// Every kind of request, for tables and tests that must cover each (`Kind.allCases`).
    public enum Kind: String, Sendable, CaseIterable {
        case add, addEach, copyMatching, update, delete, lockStatus, unlock, lock, appsList, appsAdd, appsRemove
        case setPasscode, changePasscode, removePasscode, setEraseAfterFailedAttempts
        case unlockWithPrompt, awaitPrompt, answerPrompt, proveOwner, proveOwnerWithPrompt
        case authenticate, setCredential, invalidateContext, authenticationCapabilities
        case createTokenKey, useTokenKey
        case makeFileKey, unwrapFileKey
        case exportBackup, stageRestore, restoreBackup
        case syncState, syncNow, syncAccount
        case deviceKeyBinding
        case auditRecords, auditSetting
    }

    /// The request's kind.
    public var kind: Kind {
        switch self {
        case .add: .add
        case .addEach: .addEach
        case .copyMatching: .copyMatching
        case .update: .update
        case .delete: .delete
        case .lockStatus: .lockStatus
        case .unlock: .unlock
        case .lock: .lock
        case .appsList: .appsList
        case .appsAdd: .appsAdd
        case .appsRemove: .appsRemove
        case .setPasscode: .setPasscode
        case .changePasscode: .changePasscode
        case .removePasscode: .removePasscode
        case .setEraseAfterFailedAttempts: .setEraseAfterFailedAttempts
        case .unlockWithPrompt: .unlockWithPrompt
        case .awaitPrompt: .awaitPrompt
        case .answerPrompt: .answerPrompt
        case .proveOwner: .proveOwner
        case .proveOwnerWithPrompt: .proveOwnerWithPrompt
        case .authenticate: .authenticate
        case .setCredential: .setCredential
        case .invalidateContext: .invalidateContext
        case .authenticationCapabilities: .authenticationCapabilities
        case .createTokenKey: .createTokenKey
        case .useTokenKey: .useTokenKey
        case .makeFileKey: .makeFileKey
        case .unwrapFileKey: .unwrapFileKey
        case .exportBackup: .exportBackup
        case .stageRestore: .stageRestore
        case .restoreBackup: .restoreBackup
        case .syncState: .syncState
        case .syncNow: .syncNow
        case .auditRecords: .auditRecords
        case .auditSetting: .auditSetting
        case .syncAccount: .syncAccount
        case .deviceKeyBinding: .deviceKeyBinding
        }
    }

    /// The request's name for logs (`add`, `unlock`…); it never includes the request's contents.
    public var name: String { kind.rawValue }

    /// Whether running the request twice does what running it once does (``OperationTraits/isIdempotent``).
    public var isIdempotent: Bool { kind.traits.isIdempotent }

    /// The most items one ``addEach(_:)`` may carry.
    public static let maximumAddEachCount = 1_000
}
