import KeychainModel
import Synchronization

/// The live proofs and credentials of authentication contexts, per session (a daemon connection, or the
/// embedded keychain's one session): what makes an `LAContext` evaluated once serve later calls.
///
/// A proof lives for its lifetime (the context's reuse duration, ``AuthenticationLifetime``); invalidating
/// the context or ending the session forgets it, and its application password, at once. A session keeps at
/// most ``contextsPerSession`` contexts, so that a connection cannot grow the daemon's memory without bound:
/// a new one then replaces the one used least recently.
final class AuthenticationSessions: Sendable {
    private struct Proof {
        var verified: VerifiedFactors
        var expires: ContinuousClock.Instant
    }

    private struct Entry {
        var proofs: [Proof] = []
        var applicationPassword: SecretBytes?
        var lastUse: ContinuousClock.Instant
    }

    /// The most contexts one session keeps.
    static let contextsPerSession = 64

    private let sessions = Mutex<[UInt64: [AuthenticationContextID: Entry]]>([:])
    private let now: @Sendable () -> ContinuousClock.Instant

    /// Sessions reading the time from `now` (tests move it).
    init(now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.now = now
    }

    /// What the context has proved and still may use, and its application password.
    func authorization(session: UInt64, context: AuthenticationContextID?) -> (VerifiedFactors, SecretBytes?) {
        guard let context else { return (.none, nil) }
        let moment = now()
        return sessions.withLock { sessions in
            guard var entry = sessions[session]?[context] else { return (.none, nil) }
            entry.proofs.removeAll { $0.expires <= moment }
            entry.lastUse = moment
            sessions[session]![context] = entry
            let verified = entry.proofs.reduce(VerifiedFactors.none) { $0.merging($1.verified) }
            return (verified, entry.applicationPassword)
        }
    }

    /// Keeps `verified` for the context for `lifetime`.
    func record(_ verified: VerifiedFactors, session: UInt64, context: AuthenticationContextID, lifetime: Duration) {
        let moment = now()
        update(session: session, context: context, at: moment) { entry in
            entry.proofs.append(Proof(verified: verified, expires: moment.advanced(by: lifetime)))
        }
    }

    /// Sets (or, with nil, removes) the context's application password.
    func setApplicationPassword(_ password: SecretBytes?, session: UInt64, context: AuthenticationContextID) {
        update(session: session, context: context, at: now()) { entry in entry.applicationPassword = password }
    }

    /// Forgets the context's proofs and credential.
    func invalidate(session: UInt64, context: AuthenticationContextID) {
        sessions.withLock { sessions in _ = sessions[session]?.removeValue(forKey: context) }
    }

    /// Forgets every context of a session (its connection closed).
    func endSession(_ session: UInt64) {
        _ = sessions.withLock { $0.removeValue(forKey: session) }
    }

    /// How many contexts `session` keeps.
    func count(in session: UInt64) -> Int { sessions.withLock { $0[session]?.count ?? 0 } }

    private func update(
        session: UInt64, context: AuthenticationContextID, at moment: ContinuousClock.Instant, _ change: (inout Entry) -> Void
    ) {
        sessions.withLock { sessions in
            var contexts = sessions[session] ?? [:]
            if contexts[context] == nil, contexts.count >= Self.contextsPerSession,
                let stalest = contexts.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                contexts[stalest] = nil
            }
            var entry = contexts[context] ?? Entry(lastUse: moment)
            entry.lastUse = moment
            change(&entry)
            contexts[context] = entry
            sessions[session] = contexts
        }
    }
}
