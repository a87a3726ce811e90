import KeychainModel
import KeychainOperations
import Synchronization

/// The parts of restores being staged in one keychain service (one user's keychain), each kept for the caller that
/// sent it, in zeroizing memory, within the bounds of a ``RestoreStagingPool``: the caller's, the user's (every
/// staging here) and the pool's.
final class StagedRestores: Sendable {
    /// Who staged: the session (the daemon connection; 0 in process) and the caller's context.
    struct Owner: Hashable {
        let session: UInt64
        let caller: CallerContext
    }

    /// Why a part was refused: the status and the reason for people.
    struct Refusal: Error {
        let status: KeychainStatus
        let reason: String
    }

    private struct Key: Hashable {
        let owner: Owner
        let staging: RestoreStagingID
    }

    private struct Staging {
        var parts: [SecretBytes] = []
        var bytes = 0
        var lastPart: ContinuousClock.Instant
    }

    private let stagings = Mutex<[Key: Staging]>([:])
    private let pool: RestoreStagingPool
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Stagings counted against `pool`, timed with `now` (tests move it).
    init(pool: RestoreStagingPool, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.pool = pool
        self.now = now
    }

    /// Keeps `part`, the `index`th, under `staging` for `owner`. A refused part drops the whole staging, so a
    /// failed restore leaves nothing behind.
    func stage(_ part: SecretBytes, index: Int, staging: RestoreStagingID, owner: Owner) throws(Refusal) {
        let moment = now()
        let limits = pool.limits
        // A part takes whole pages of its own (`LockedMemory`): count at least one.
        let charge = max(part.count, 4096)
        let refusal: Refusal? = stagings.withLock { stagings in
            dropAbandoned(&stagings, at: moment)
            let key = Key(owner: owner, staging: staging)
            let ownerKeys = stagings.keys.filter { $0.owner == owner }
            let ownerBytes = ownerKeys.reduce(0) { $0 + (stagings[$1]?.bytes ?? 0) }
            let userBytes = stagings.values.reduce(0) { $0 + $1.bytes }
            var entry = stagings[key] ?? Staging(lastPart: moment)
            var refusal: Refusal?
            if index != entry.parts.count {
                refusal = Refusal(
                    status: .param,
                    reason: index == 0
                        ? "a restore is already staged under \(staging) for this caller"
                        : "part \(index) of a restore whose earlier parts this caller has not staged (its connection closed, or it was abandoned); nothing was restored"
                )
            } else if stagings[key] == nil, ownerKeys.count >= limits.stagingsPerCaller {
                refusal = Refusal(
                    status: .allocate, reason: "this caller is already staging \(ownerKeys.count) restores, the most it may; finish or abandon one first")
            } else if ownerBytes + charge > limits.bytesPerCaller {
                refusal = Refusal(
                    status: .allocate,
                    reason:
                        "the restore does not fit in the \(limits.bytesPerCaller >> 20) MiB one caller may stage (\(ownerBytes >> 10) KiB staged, the part brings \(charge >> 10) KiB); nothing was restored"
                )
            } else if userBytes + charge > limits.bytesPerUser {
                refusal = Refusal(
                    status: .allocate,
                    reason:
                        "the restore does not fit in the \(limits.bytesPerUser >> 20) MiB one user may stage, all its programs and connections together (\(userBytes >> 10) KiB staged); nothing was restored"
                )
            } else if !pool.reserve(charge) {
                // Other users' restores are not this caller's business: the reason gives the bound, not their use of it.
                refusal = Refusal(
                    status: .allocate,
                    reason:
                        "restores being staged by all callers fill the \(limits.bytesInAll >> 20) MiB all callers may stage; nothing was restored, try again later"
                )
            }
            if refusal != nil {
                if let dropped = stagings.removeValue(forKey: key) { pool.release(dropped.bytes) }
                return refusal
            }
            entry.parts.append(part)
            entry.bytes += charge
            entry.lastPart = moment
            stagings[key] = entry
            return nil
        }
        if let refusal { throw refusal }
    }

    /// Takes the parts staged under `staging` by `owner`, in the order they came, and forgets them; nil when there
    /// are none (never staged, already taken, abandoned, or staged by someone else).
    func take(_ staging: RestoreStagingID, owner: Owner) -> [SecretBytes]? {
        let moment = now()
        return stagings.withLock { stagings in
            dropAbandoned(&stagings, at: moment)
            guard let entry = stagings.removeValue(forKey: Key(owner: owner, staging: staging)) else { return nil }
            pool.release(entry.bytes)
            return entry.parts
        }
    }

    /// Drops every staging of `session` (its connection closed).
    func drop(session: UInt64) {
        stagings.withLock { stagings in
            for (key, entry) in stagings where key.owner.session == session {
                stagings[key] = nil
                pool.release(entry.bytes)
            }
        }
    }

    /// How long after its last part a staging is dropped.
    var abandonedAfter: Duration { pool.limits.abandonedAfter }

    /// The bytes staged in this service now (each part counted as at least a page).
    var stagedBytes: Int {
        let moment = now()
        return stagings.withLock { stagings in
            dropAbandoned(&stagings, at: moment)
            return stagings.values.reduce(0) { $0 + $1.bytes }
        }
    }

    /// The bytes `session` has staged now, every caller context's of it.
    func stagedBytes(session: UInt64) -> Int {
        let moment = now()
        return stagings.withLock { stagings in
            dropAbandoned(&stagings, at: moment)
            return stagings.filter { $0.key.owner.session == session }.values.reduce(0) { $0 + $1.bytes }
        }
    }

    private func dropAbandoned(_ stagings: inout [Key: Staging], at moment: ContinuousClock.Instant) {
        for (key, entry) in stagings where moment - entry.lastPart >= pool.limits.abandonedAfter {
            stagings[key] = nil
            pool.release(entry.bytes)
        }
    }
}
