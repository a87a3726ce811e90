import KeychainModel
import Query

/// What the keychain answers to a ``Request`` (the table at ``Request`` says which answer goes with
/// which request).
public enum Response: Sendable, Equatable {
    /// `SecItemAdd` or `SecItemCopyMatching` succeeded: the result, or `nil` when none was asked for.
    case value(KeychainValue?)
    /// An operation that returns nothing: `.success`, or Apple's error code when the keychain has nothing
    /// to add to it. The code travels as its `Int32`, so codes this build does not name survive too.
    case status(KeychainStatus)
    /// A refusal with its reason: which rule, which key, and why (never a secret).
    case failure(KeychainStatus, reason: String)
    /// A keystore operation failed; the exact `KeystoreError`.
    case keystoreError(KeystoreError)
    /// The keystore's status.
    case lockStatus(KeystoreStatus)
    /// The entitlements registry.
    case apps([RegisteredApp])
    /// A question for the person, answering the prompt agent's ``Request/awaitPrompt``.
    case prompt(Prompt)
    /// An authentication did not succeed: LocalAuthentication's code and the reason.
    case authenticationFailure(AuthenticationFailure)
    /// An item call found an item it may open only once the person proves `requirement` (`errSecAuthNeeded`,
    /// between the keychain and its client): the client asks with ``Request/authenticate(_:)`` and sends the
    /// call again with the context. Apps never see it.
    case authenticationNeeded(AuthenticationRequirement)
    /// What the keychain can authenticate with, answering ``Request/authenticationCapabilities``.
    case authenticationCapabilities(AuthenticationCapabilities)
    /// A key made by ``Request/createTokenKey(_:)``.
    case tokenKey(TokenKey)
    /// A protected file's key, made by ``Request/makeFileKey(_:)`` or unwrapped by ``Request/unwrapFileKey(_:)``.
    case fileKey(FileKey)
    /// The items of a backup, read by ``Request/exportBackup(_:)``.
    case backup(BackupContents)
    /// What ``Request/restoreBackup(_:)`` did.
    case restoreReport(RestoreReport)
    /// What ``Request/addEach(_:)`` did with each item, in order: `.success` for an item added, else its status.
    case addOutcomes([KeychainStatus])
    /// What the keychain knows of its sync, answering ``Request/syncState(changedFrom:)``.
    case syncState(SyncState)
    /// What a sync run did, answering ``Request/syncNow``.
    case syncReport(SyncReport)
    /// Records of the audit journal, answering ``Request/auditRecords(_:)``.
    case auditPage(AuditPage)
    /// What a ``Request/syncAccount(_:)`` came to.
    case syncAccount(SyncAccountAnswer)
    /// The keychain's recovery key, printed form (``Request/deviceKeyBinding(_:)``).
    case recoveryKey(SecretBytes)

    /// The response for a failed call: with its reason when it has one.
    public init(_ failure: KeychainFailure) {
        if let reason = failure.reason {
            self = .failure(failure.status, reason: reason)
        } else {
            self = .status(failure.status)
        }
    }
}
