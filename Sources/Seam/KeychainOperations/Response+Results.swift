import Foundation
import KeychainModel
import Query

// Each kind of request reads its answer one way; these are the only places that do, for every client.

extension Response {
    /// The result of an item call (`add`, `copyMatching`, `update`, `delete`): the value, nil, or the failure.
    public func itemResult() throws(KeychainFailure) -> KeychainValue? {
        switch self {
        case .value(let value): return value
        case .status(let status) where status.isSuccess: return nil
        case .status(let status): throw KeychainFailure(status)
        case .failure(let status, let reason): throw KeychainFailure(status, reason: reason)
        case .keystoreError(let error): throw KeychainFailure(error.status, reason: error.description)
        case .authenticationFailure(let failure): throw KeychainFailure(failure.status, reason: failure.reason)
        case .authenticationNeeded: throw KeychainFailure(.authFailed, reason: "the item needs authentication the call did not give")
        case .lockStatus, .apps, .prompt, .authenticationCapabilities, .tokenKey, .fileKey, .backup, .restoreReport, .addOutcomes, .syncState, .syncReport,
            .syncAccount, .recoveryKey, .auditPage:
            throw KeychainFailure(.internal, reason: "the keychain answered an item call with \(kind)")
        }
    }

    /// The key ``Request/createTokenKey(_:)`` made, or the failure.
    public func tokenKeyResult() throws(KeychainFailure) -> TokenKey {
        if case .tokenKey(let key) = self { return key }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a key creation with \(kind)")
    }

    /// What ``Request/useTokenKey(_:)`` produced (a signature, a plaintext, a shared secret), or the failure.
    public func tokenKeyUseResult() throws(KeychainFailure) -> Data {
        if case .value(.data(let bytes)?) = self { return bytes }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a key operation with \(kind)")
    }

    /// The result of a keystore call that returns nothing (unlock, lock, the passcode changes).
    public func keystoreResult() throws(KeystoreError) {
        switch self {
        case .status(let status) where status.isSuccess: return
        case .keystoreError(let error): throw error
        default: throw unexpected
        }
    }

    /// The key a `makeFileKey` or `unwrapFileKey` answer carries, or the keystore's error.
    public func fileKeyResult() throws(KeystoreError) -> FileKey {
        switch self {
        case .fileKey(let key): return key
        case .keystoreError(let error): throw error
        default: throw unexpected
        }
    }

    /// The items an ``Request/exportBackup(_:)`` answer carries, or the failure (a wrong passcode keeps its
    /// keystore status and reason).
    public func backupResult() throws(KeychainFailure) -> BackupContents {
        if case .backup(let contents) = self { return contents }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a backup export with \(kind)")
    }

    /// Success of a ``Request/stageRestore(_:)``, or the failure (`errSecAllocate` past the staging limits).
    public func restoreStagingResult() throws(KeychainFailure) {
        guard try itemResult() == nil else {
            throw KeychainFailure(.internal, reason: "the keychain answered a staged restore part with \(kind)")
        }
    }

    /// What an ``Request/restoreBackup(_:)`` did, or the failure.
    public func restoreReportResult() throws(KeychainFailure) -> RestoreReport {
        if case .restoreReport(let report) = self { return report }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a restore with \(kind)")
    }

    /// What an ``Request/addEach(_:)`` did with each item, or the failure of the whole request.
    public func addOutcomesResult() throws(KeychainFailure) -> [KeychainStatus] {
        if case .addOutcomes(let outcomes) = self { return outcomes }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a bulk add with \(kind)")
    }

    /// What the keychain knows of its sync, from a ``Request/syncState(changedFrom:)`` answer, or the failure.
    public func syncStateResult() throws(KeychainFailure) -> SyncState {
        if case .syncState(let state) = self { return state }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a sync state request with \(kind)")
    }

    /// The audit records ``Request/auditRecords(_:)`` read, or the failure.
    public func auditPageResult() throws(KeychainFailure) -> AuditPage {
        if case .auditPage(let page) = self { return page }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered an audit read with \(kind)")
    }

    /// The audit setting ``Request/auditSetting(_:)`` answered, or the failure.
    public func auditSettingResult() throws(KeychainFailure) -> Bool {
        if case .value(.bool(let refuses)?) = self { return refuses }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered an audit setting with \(kind)")
    }

    /// What a ``Request/syncNow`` run did, or the failure.
    public func syncReportResult() throws(KeychainFailure) -> SyncReport {
        if case .syncReport(let report) = self { return report }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a sync run with \(kind)")
    }

    /// What a ``Request/syncAccount(_:)`` came to, or the failure (a keystore error keeps its status and reason).
    public func syncAccountResult() throws(KeychainFailure) -> SyncAccountAnswer {
        if case .syncAccount(let answer) = self { return answer }
        _ = try itemResult()
        throw KeychainFailure(.internal, reason: "the keychain answered a sync account request with \(kind)")
    }

    /// The keystore's status, from a `lockStatus` answer.
    public func lockStatusResult() throws(KeystoreError) -> KeystoreStatus {
        switch self {
        case .lockStatus(let status): return status
        case .keystoreError(let error): throw error
        default: throw unexpected
        }
    }

    /// The next prompt, from an `awaitPrompt` answer.
    public func promptResult() throws(KeystoreError) -> Prompt {
        switch self {
        case .prompt(let prompt): return prompt
        case .keystoreError(let error): throw error
        default: throw unexpected
        }
    }

    /// The result of an `authenticate` request, or of a context call (`setCredential`, `invalidateContext`).
    public func authenticationResult() throws(AuthenticationFailure) {
        switch self {
        case .status(let status) where status.isSuccess: return
        case .authenticationFailure(let failure): throw failure
        case .keystoreError(.cancelled): throw AuthenticationFailure(.systemCancel, reason: "the call was cancelled")
        case .keystoreError(let error): throw AuthenticationFailure(.authenticationFailed, reason: error.description)
        case .status(let status): throw AuthenticationFailure(.authenticationFailed, reason: "\(status.name) (\(status.code))")
        case .failure(_, let reason): throw AuthenticationFailure(.authenticationFailed, reason: reason)
        default: throw AuthenticationFailure(.authenticationFailed, reason: "the keychain answered with \(kind)")
        }
    }

    /// What the keychain can authenticate with, from an `authenticationCapabilities` answer.
    public func capabilitiesResult() throws(KeystoreError) -> AuthenticationCapabilities {
        switch self {
        case .authenticationCapabilities(let capabilities): return capabilities
        case .keystoreError(let error): throw error
        default: throw unexpected
        }
    }

    /// What a ``Request/deviceKeyBinding(_:)`` answered: the recovery key, nil for a change that returns none, or the
    /// failure.
    public func deviceKeyBindingResult() throws(KeystoreError) -> SecretBytes? {
        switch self {
        case .recoveryKey(let key): return key
        case .status(let status) where status.isSuccess: return nil
        case .keystoreError(let error): throw error
        default: throw unexpected
        }
    }

    /// The registry, from an `apps…` answer.
    public func appsResult() throws(RegistryFailure) -> [RegisteredApp] {
        switch self {
        case .apps(let apps): return apps
        case .keystoreError(let error): throw .keystore(error)
        case .status(let status): throw .refused(KeychainFailure(status))
        case .failure(let status, let reason): throw .refused(KeychainFailure(status, reason: reason))
        case .authenticationFailure(let failure): throw .refused(KeychainFailure(failure.status, reason: failure.reason))
        case .value, .lockStatus, .prompt, .authenticationCapabilities, .authenticationNeeded, .tokenKey, .fileKey, .backup, .restoreReport, .addOutcomes,
            .syncState, .syncReport, .syncAccount, .recoveryKey, .auditPage:
            throw .refused(KeychainFailure(.internal, reason: "the keychain answered a registry call with \(kind)"))
        }
    }

    /// A keystore error for an answer that does not fit the request: a failure status keeps its status.
    private var unexpected: KeystoreError {
        switch self {
        case .status(let status) where status == .userCanceled:
            .cancelled
        case .status(let status) where status == .notAvailable, .failure(let status, _) where status == .notAvailable:
            .unavailable(reason: reasonText ?? "the keychain daemon does not answer")
        case .status(let status), .failure(let status, _):
            .io(reason: reasonText ?? "\(status.name) (\(status.code)): \(status.explanation)")
        default:
            .io(reason: "the keychain answered with \(kind)")
        }
    }

    private var reasonText: String? {
        if case .failure(_, let reason) = self { return reason }
        return nil
    }

    /// The answer's kind, for messages (never its contents).
    private var kind: String {
        switch self {
        case .value: "a value"
        case .status: "a status"
        case .failure: "a failure"
        case .keystoreError: "a keystore error"
        case .lockStatus: "a lock status"
        case .apps: "a registry listing"
        case .prompt: "a prompt"
        case .authenticationFailure: "an authentication failure"
        case .authenticationCapabilities: "authentication capabilities"
        case .authenticationNeeded: "a request for authentication"
        case .tokenKey: "a key"
        case .fileKey: "a file key"
        case .backup: "a backup's items"
        case .restoreReport: "a restore report"
        case .addOutcomes: "a bulk add's outcomes"
        case .syncState: "a sync state"
        case .syncReport: "a sync report"
        case .syncAccount: "a sync account's answer"
        case .recoveryKey: "a recovery key"
        case .auditPage: "audit records"
        }
    }
}

/// Why a registry call failed: the passcode check (a keystore error) or a refusal.
public enum RegistryFailure: Error, Sendable, Equatable {
    /// The passcode was wrong, throttled, or none is set.
    case keystore(KeystoreError)
    /// The keychain refused the call: no daemon, a path that cannot be hashed, a file error.
    case refused(KeychainFailure)
}
