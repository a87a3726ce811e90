import Engine
import KeychainModel
import KeychainOperations

extension KeychainService {
    /// ``Request/syncState(changedFrom:)`` in this process: what the ledger holds, at once (an embedded keychain
    /// runs no background sync, so there is no last run and nothing to wait for).
    func syncState() -> Response {
        if missingKeychainAnswer() != nil { return .syncState(SyncState(isSyncing: false)) }
        do {
            return .syncState(try run { () throws(EngineRefusal) in try Self.syncState(of: try self.openedEngine()) })
        } catch {
            return Response(error)
        }
    }

    /// ``Request/syncNow`` in this process: refused, since sync's client is not part of a program that embeds the
    /// keychain.
    func syncNow() -> Response {
        .failure(
            .unimplemented,
            reason: "an embedded keychain syncs when `coffer sync now` runs, or in the background through cofferd; this program cannot run sync itself")
    }

    /// ``Request/syncState(changedFrom:)``'s answer for `engine`, with the last run of the sync that runs in the
    /// background (the daemon's): the state, or the refusal.
    public static func syncStateAnswer(of engine: KeychainEngine, lastRun: SyncRunOutcome?) -> Response {
        do {
            var state = try syncState(of: engine)
            if state.isSyncing { state.lastRun = lastRun }
            return .syncState(state)
        } catch {
            return Response(error)
        }
    }

    /// ``Request/syncAccount(_:)`` in this process: refused, since `coffer sync` opens an embedded keychain itself.
    func syncAccount() -> Response {
        .failure(
            .unimplemented,
            reason:
                "an embedded keychain's sync account is managed by `coffer sync`, which opens the keychain itself; cofferd manages the account of a keychain it serves"
        )
    }

    /// What `engine`'s sync ledger says, without a last run.
    public static func syncState(of engine: KeychainEngine) throws(EngineRefusal) -> SyncState {
        guard try engine.isSyncing else { return SyncState(isSyncing: false) }
        let counts = try engine.syncLedgerCounts()
        return SyncState(
            isSyncing: true, pending: counts.pending, mirrored: counts.mirrored, waitingForUnlock: counts.incoming,
            conflicts: counts.conflicts)
    }
}
