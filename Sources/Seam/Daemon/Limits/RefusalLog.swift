import Logging
import Synchronization

/// Logs refusals once per burst: the first refusal of a kind for a uid is logged at once, later ones of
/// the same kind and uid are counted and reported with the next one logged after ``quietPeriod``. An
/// attacker's thousand refused connections make two log lines, not a thousand.
final class RefusalLog: Sendable {
    private struct Burst {
        var lastLogged: ContinuousClock.Instant
        var suppressed: Int
    }

    private struct Key: Hashable {
        let kind: String
        let uid: UInt32
    }

    private let bursts = Mutex<[Key: Burst]>([:])
    private let logger: Logger
    /// How long after a logged refusal the same refusals are only counted.
    let quietPeriod: Duration

    /// A log writing to `logger`.
    init(logger: Logger, quietPeriod: Duration = .seconds(10)) {
        self.logger = logger
        self.quietPeriod = quietPeriod
    }

    /// Records a refusal of `kind` (a short constant such as "connection cap") for `uid`, `pid`, with a reason.
    func refused(_ kind: String, uid: UInt32, pid: Int32, reason: String) {
        let now = ContinuousClock.now
        let suppressed: Int? = bursts.withLock { bursts in
            let key = Key(kind: kind, uid: uid)
            if var burst = bursts[key], now - burst.lastLogged < quietPeriod {
                burst.suppressed += 1
                bursts[key] = burst
                return nil
            }
            let earlier = bursts[key]?.suppressed ?? 0
            bursts[key] = Burst(lastLogged: now, suppressed: 0)
            if bursts.count > 4_096 { bursts = bursts.filter { now - $0.value.lastLogged < quietPeriod } }
            return earlier
        }
        guard let suppressed else { return }
        logger.warning(
            "refused: \(kind)",
            metadata: [
                "uid": "\(uid)", "pid": "\(pid)", "reason": "\(reason)",
                "refusedSinceLastLog": "\(suppressed)",
            ])
    }
}
