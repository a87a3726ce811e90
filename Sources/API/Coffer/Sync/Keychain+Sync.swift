import KeychainClient
import KeychainModel
import KeychainOperations

/// Sync across machines: items with `kSecAttrSynchronizable` follow their owner to every device of the account
/// (`coffer sync setup` and `coffer sync join` make one). Apple code needs nothing of this; these calls let a program
/// show how sync is doing.
extension Keychain {
    /// What the keychain knows of its sync, without asking the server: whether it has joined an account, the local
    /// changes not sent yet, the records waiting for an unlock, the conflicts kept, and, through cofferd, how the
    /// last background run ended.
    public func syncState() async throws(KeychainError) -> SyncState {
        try await syncCall(.syncState) { () async throws(KeychainFailure) in try await client.syncState() }
    }

    /// Runs sync now and returns what the run did. Through cofferd the daemon's background sync runs at once; a
    /// keychain that has not joined an account is `KeychainStatus.notAvailable` (-25291), a run that failed (the
    /// server away) `KeychainStatus.io` (-36) with the reason. An embedded keychain syncs when `coffer sync now`
    /// runs: here it is `KeychainStatus.unimplemented` (-4).
    @discardableResult
    public func syncNow() async throws(KeychainError) -> SyncReport {
        try await syncCall(.syncNow) { () async throws(KeychainFailure) in try await client.syncNow() }
    }

    /// The sync state now, then each time it changes (a run ends, a change waits to be sent, records wait for an
    /// unlock), until the consuming task stops or a call fails (the stream then ends with the ``KeychainError``).
    ///
    /// Through cofferd each change is told as it happens; an embedded keychain is read again every
    /// `pollInterval`.
    public func syncStateUpdates(pollInterval: Duration = .seconds(5)) -> AsyncThrowingStream<SyncState, any Error> {
        let keychain = self
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: SyncState.self)
        let task = Task {
            var known: SyncState?
            let clock = ContinuousClock()
            while !Task.isCancelled {
                let asked = clock.now
                let state: SyncState
                do {
                    state = try await keychain.syncCall(.syncState) { () async throws(KeychainFailure) in
                        try await keychain.client.syncState(changedFrom: known)
                    }
                } catch {
                    if !Task.isCancelled { continuation.finish(throwing: error) }
                    break
                }
                if state != known {
                    continuation.yield(state)
                    known = state
                } else {
                    // The same state sooner than the poll interval: a keychain that answers at once (embedded).
                    try? await Task.sleep(until: asked + pollInterval, clock: clock)
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func syncCall<Result>(
        _ operation: KeychainError.Operation, _ body: () async throws(KeychainFailure) -> Result
    ) async throws(KeychainError) -> Result {
        do {
            return try await body()
        } catch {
            throw KeychainError(status: error.status, operation: operation, reason: error.reason.map(KeychainError.sentence))
        }
    }
}
