import KeychainClient
import KeychainModel
import Query

/// A client's blocking calls with each failure reduced to Apple's status, the form most tests assert
/// (`#expect(throws: KeychainStatus.duplicateItem)`); keystore calls throw the exact `KeystoreError`.
public struct StatusCalls: Sendable {
    private let calls: BlockingKeychainCalls

    init(_ calls: BlockingKeychainCalls) { self.calls = calls }

    public func add(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        try status { () throws(KeychainFailure) in try calls.add(query) }
    }

    public func copyMatching(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        try status { () throws(KeychainFailure) in try calls.copyMatching(query) }
    }

    public func update(_ query: QueryDictionary, attributesToUpdate: QueryDictionary) throws(KeychainStatus) {
        try status { () throws(KeychainFailure) in try calls.update(query, attributesToUpdate: attributesToUpdate) }
    }

    public func delete(_ query: QueryDictionary) throws(KeychainStatus) {
        try status { () throws(KeychainFailure) in try calls.delete(query) }
    }

    public func lockStatus() throws(KeystoreError) -> KeystoreStatus { try calls.lockStatus() }
    public func unlock(passcode: SecretBytes) throws(KeystoreError) { try calls.unlock(passcode: passcode) }
    public func lock() throws(KeystoreError) { try calls.lock() }
    public func setPasscode(_ passcode: SecretBytes) throws(KeystoreError) { try calls.setPasscode(passcode) }
    public func changePasscode(from old: SecretBytes, to new: SecretBytes) throws(KeystoreError) {
        try calls.changePasscode(from: old, to: new)
    }
    public func removePasscode(current: SecretBytes) throws(KeystoreError) { try calls.removePasscode(current: current) }
    public func setEraseAfterFailedAttempts(_ enabled: Bool, passcode: SecretBytes) throws(KeystoreError) {
        try calls.setEraseAfterFailedAttempts(enabled, passcode: passcode)
    }

    private func status<Result>(_ call: () throws(KeychainFailure) -> Result) throws(KeychainStatus) -> Result {
        do {
            return try call()
        } catch {
            throw error.status
        }
    }
}

extension KeychainClient {
    /// The blocking calls, failures reduced to statuses (see ``StatusCalls``).
    public var statusCalls: StatusCalls { StatusCalls(blocking) }
}
