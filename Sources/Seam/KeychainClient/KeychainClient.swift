import KeychainModel
import KeychainOperations
import Query

/// The one interface every front end (the `Security` module, the `Coffer` API, the CLI, the coming
/// helpers) uses to reach a keychain, whether it runs in this process or behind the daemon.
///
/// A client carries ``Request``s and brings back ``Response``s; the keychain side parses the dictionaries
/// (one place for every rule) and answers with Apple's statuses. The typed calls below are the same for
/// every client, written once over ``send(_:)`` and ``sendBlocking(_:)``.
///
/// - ``send(_:)`` suspends the calling task: the work, or the wait for the daemon, happens on Coffer's
///   own threads, never on the cooperative pool.
/// - ``sendBlocking(_:)`` blocks the calling thread, as Apple's synchronous `SecItem…` functions do.
public protocol KeychainClient: Sendable {
    /// Sends `request` and suspends until the answer comes. Cancelling the task ends the wait for a
    /// request that has not started, or that changes nothing, with `errSecUserCanceled` (-128).
    func send(_ request: Request) async -> Response
    /// Sends `request` and blocks the calling thread until the answer comes.
    func sendBlocking(_ request: Request) -> Response
}

extension KeychainClient {
    /// `SecItemAdd`: the result the query's `kSecReturn…` keys ask for, or nil.
    public func add(_ query: QueryDictionary) async throws(KeychainFailure) -> KeychainValue? {
        try await send(.add(query)).itemResult()
    }

    /// Adds many items in one transaction (``Request/addEach(_:)``, at most ``Request/maximumAddEachCount``):
    /// each item's status, in order, `.success` for one added.
    public func addEach(_ queries: [QueryDictionary]) async throws(KeychainFailure) -> [KeychainStatus] {
        try await send(.addEach(queries)).addOutcomesResult()
    }

    /// `SecItemCopyMatching`.
    public func copyMatching(_ query: QueryDictionary) async throws(KeychainFailure) -> KeychainValue? {
        try await send(.copyMatching(query)).itemResult()
    }

    /// `SecItemUpdate`.
    public func update(_ query: QueryDictionary, attributesToUpdate: QueryDictionary) async throws(KeychainFailure) {
        _ = try await send(.update(query: query, attributesToUpdate: attributesToUpdate)).itemResult()
    }

    /// `SecItemDelete`.
    public func delete(_ query: QueryDictionary) async throws(KeychainFailure) {
        _ = try await send(.delete(query)).itemResult()
    }

    /// The passcode, lock state and throttle.
    public func lockStatus() async throws(KeystoreError) -> KeystoreStatus {
        try await send(.lockStatus).lockStatusResult()
    }

    /// Unlocks with the passcode.
    public func unlock(passcode: SecretBytes) async throws(KeystoreError) {
        try await send(.unlock(passcode: passcode)).keystoreResult()
    }

    /// Locks: items of the `WhenUnlocked` classes become unreadable until the next unlock.
    public func lock() async throws(KeystoreError) {
        try await send(.lock).keystoreResult()
    }

    /// What the keychain knows of its sync (``Request/syncState(changedFrom:)``): at once, or with `known`, once
    /// the daemon's state differs from it (at most ``Request/syncStateWaitLimit`` later).
    public func syncState(changedFrom known: SyncState? = nil) async throws(KeychainFailure) -> SyncState {
        try await send(.syncState(changedFrom: known)).syncStateResult()
    }

    /// Runs sync now (``Request/syncNow``) and returns what the run did.
    public func syncNow() async throws(KeychainFailure) -> SyncReport {
        try await send(.syncNow).syncReportResult()
    }

    /// Records of the audit journal (``Request/auditRecords(_:)``): the owner's, with the passcode when one is set.
    public func auditRecords(_ read: AuditRead) async throws(KeychainFailure) -> AuditPage {
        try await send(.auditRecords(read)).auditPageResult()
    }

    /// Whether secret reads the audit journal cannot record are refused, after the change `setting` asks for
    /// (``Request/auditSetting(_:)``).
    public func auditSetting(_ setting: AuditSetting) async throws(KeychainFailure) -> Bool {
        try await send(.auditSetting(setting)).auditSettingResult()
    }

    /// A step of the keychain's sync account, through cofferd (``Request/syncAccount(_:)``).
    public func syncAccount(_ request: SyncAccountRequest) async throws(KeychainFailure) -> SyncAccountAnswer {
        try await send(.syncAccount(request)).syncAccountResult()
    }

    /// The same calls, blocking the calling thread.
    public var blocking: BlockingKeychainCalls { BlockingKeychainCalls(client: self) }
}

/// A client's typed calls in their blocking form, for synchronous callers: Apple's `SecItem…` functions
/// and the command-line tool.
public struct BlockingKeychainCalls: Sendable {
    /// The client the calls go through.
    public let client: any KeychainClient

    /// `SecItemAdd`: the result the query's `kSecReturn…` keys ask for, or nil.
    public func add(_ query: QueryDictionary) throws(KeychainFailure) -> KeychainValue? {
        try client.sendBlocking(.add(query)).itemResult()
    }

    /// Adds many items in one transaction (``Request/addEach(_:)``): each item's status, in order.
    public func addEach(_ queries: [QueryDictionary]) throws(KeychainFailure) -> [KeychainStatus] {
        try client.sendBlocking(.addEach(queries)).addOutcomesResult()
    }

    /// `SecItemCopyMatching`.
    public func copyMatching(_ query: QueryDictionary) throws(KeychainFailure) -> KeychainValue? {
        try client.sendBlocking(.copyMatching(query)).itemResult()
    }

    /// `SecItemCopyMatching` of a `kSecMatchLimitAll` query: the matches, none when nothing matches
    /// (`errSecItemNotFound`); an answer that is not a list is ``KeychainStatus/internal`` (-26276).
    public func allMatches(_ query: QueryDictionary) throws(KeychainFailure) -> [KeychainValue] {
        let result: KeychainValue?
        do {
            result = try copyMatching(query)
        } catch  where error.status == .itemNotFound {
            return []
        }
        guard case .array(let items)? = result else {
            throw KeychainFailure(.internal, reason: "a search for every match was not answered with a list")
        }
        return items
    }

    /// `SecItemUpdate`.
    public func update(_ query: QueryDictionary, attributesToUpdate: QueryDictionary) throws(KeychainFailure) {
        _ = try client.sendBlocking(.update(query: query, attributesToUpdate: attributesToUpdate)).itemResult()
    }

    /// `SecItemDelete`.
    public func delete(_ query: QueryDictionary) throws(KeychainFailure) {
        _ = try client.sendBlocking(.delete(query)).itemResult()
    }

    /// The passcode, lock state and throttle.
    public func lockStatus() throws(KeystoreError) -> KeystoreStatus {
        try client.sendBlocking(.lockStatus).lockStatusResult()
    }

    /// What the keychain knows of its sync, at once.
    public func syncState() throws(KeychainFailure) -> SyncState {
        try client.sendBlocking(.syncState(changedFrom: nil)).syncStateResult()
    }

    /// Runs sync now and returns what the run did.
    public func syncNow() throws(KeychainFailure) -> SyncReport {
        try client.sendBlocking(.syncNow).syncReportResult()
    }

    /// Records of the audit journal: the owner's, with the passcode when one is set.
    public func auditRecords(_ read: AuditRead) throws(KeychainFailure) -> AuditPage {
        try client.sendBlocking(.auditRecords(read)).auditPageResult()
    }

    /// Whether secret reads the audit journal cannot record are refused, after the change `setting` asks for.
    public func auditSetting(_ setting: AuditSetting) throws(KeychainFailure) -> Bool {
        try client.sendBlocking(.auditSetting(setting)).auditSettingResult()
    }

    /// A step of the keychain's sync account, through cofferd (``Request/syncAccount(_:)``).
    public func syncAccount(_ request: SyncAccountRequest) throws(KeychainFailure) -> SyncAccountAnswer {
        try client.sendBlocking(.syncAccount(request)).syncAccountResult()
    }

    /// Unlocks with the passcode.
    public func unlock(passcode: SecretBytes) throws(KeystoreError) {
        try client.sendBlocking(.unlock(passcode: passcode)).keystoreResult()
    }

    /// Locks.
    public func lock() throws(KeystoreError) {
        try client.sendBlocking(.lock).keystoreResult()
    }

    /// Proves this connection is the keychain's owner (``Request/proveOwner(passcode:)``), for the owner's
    /// calls that follow on it through the system daemon.
    public func proveOwner(passcode: SecretBytes) throws(KeystoreError) {
        try client.sendBlocking(.proveOwner(passcode: passcode)).keystoreResult()
    }

    /// Sets the first passcode (the KDF is calibrated where the keychain lives).
    public func setPasscode(_ passcode: SecretBytes) throws(KeystoreError) {
        try client.sendBlocking(.setPasscode(new: passcode)).keystoreResult()
    }

    /// Changes the passcode.
    public func changePasscode(from old: SecretBytes, to new: SecretBytes) throws(KeystoreError) {
        try client.sendBlocking(.changePasscode(old: old, new: new)).keystoreResult()
    }

    /// Removes the passcode; WhenPasscodeSetThisDeviceOnly items are lost.
    public func removePasscode(current: SecretBytes) throws(KeystoreError) {
        try client.sendBlocking(.removePasscode(current: current)).keystoreResult()
    }

    /// Turns erasing the class keys after ten wrong passcodes on or off.
    public func setEraseAfterFailedAttempts(_ enabled: Bool, passcode: SecretBytes) throws(KeystoreError) {
        try client.sendBlocking(.setEraseAfterFailedAttempts(enabled, passcode: passcode)).keystoreResult()
    }

    /// Moves the device key into the TPM or back, shows or renews the recovery key, or recovers the keychain
    /// (``DeviceKeyBindingChange``): the recovery key when the change returns one.
    public func changeDeviceKeyBinding(_ change: DeviceKeyBindingChange) throws(KeystoreError) -> SecretBytes? {
        try client.sendBlocking(.deviceKeyBinding(change)).deviceKeyBindingResult()
    }
}
