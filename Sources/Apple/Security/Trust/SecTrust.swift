import Foundation
import Synchronization

/// `SecTrust`: a certificate to evaluate, with the certificates that may complete its chain, the policies to check,
/// the anchors to trust and the date to check at. Made with ``SecTrustCreateWithCertificates(_:_:_:)``, evaluated
/// with ``SecTrustEvaluateWithError(_:_:)``.
///
/// As on Apple platforms, changing a setting discards the last result, and the functions that report on the chain
/// (``SecTrustGetTrustResult(_:_:)``, ``SecTrustCopyCertificateChain(_:)``, ``SecTrustGetCertificateCount(_:)``)
/// evaluate first when there is no result. A trust may be used from several threads at once.
public final class SecTrust: Sendable {
    /// What an evaluation depends on.
    struct Settings: Sendable {
        /// The leaf first, then certificates that may complete its chain.
        var certificates: [SecCertificate]
        /// At least one; every one must be met.
        var policies: [SecPolicy]
        /// The anchors ``SecTrustSetAnchorCertificates(_:_:)`` set, or nil for none.
        var customAnchors: [SecCertificate]?
        /// Whether the system's anchors are left out.
        var anchorsOnly: Bool
        /// The date ``SecTrustSetVerifyDate(_:_:)`` set, or nil for the time of the evaluation.
        var verifyDate: Date?
    }

    private struct State {
        var settings: Settings
        /// Counts changes of the settings, so that an evaluation of older settings does not keep its result.
        var generation: UInt64 = 0
        var outcome: TrustOutcome?
    }

    private let state: Mutex<State>

    init(certificates: [SecCertificate], policies: [SecPolicy]) {
        state = Mutex(State(settings: Settings(certificates: certificates, policies: policies, customAnchors: nil, anchorsOnly: false)))
    }

    /// The current settings.
    var settings: Settings { state.withLock { $0.settings } }

    /// The certificate being evaluated.
    var leaf: SecCertificate { state.withLock { $0.settings.certificates[0] } }

    /// Changes the settings and discards the last result.
    func change(_ update: (inout Settings) -> Void) {
        state.withLock { state in
            update(&state.settings)
            state.generation &+= 1
            state.outcome = nil
        }
    }

    /// The last result, if the settings have not changed since.
    var lastOutcome: TrustOutcome? { state.withLock { $0.outcome } }

    /// The last result, or a new evaluation's (Apple's functions: the calling thread waits).
    func outcome() -> TrustOutcome {
        let (cached, settings, generation) = state.withLock { ($0.outcome, $0.settings, $0.generation) }
        if let cached { return cached }
        let outcome = TrustEvaluationThread.shared.wait { await TrustEvaluator(settings).evaluate() }
        keep(outcome, of: generation)
        return outcome
    }

    /// The last result, or a new evaluation's, then `completion` with it on the evaluation thread; returns at once.
    func evaluateInBackground(then completion: @escaping @Sendable (TrustOutcome) -> Void) {
        let (cached, settings, generation) = state.withLock { ($0.outcome, $0.settings, $0.generation) }
        if let cached {
            completion(cached)
            return
        }
        TrustEvaluationThread.shared.start({ await TrustEvaluator(settings).evaluate() }) { [self] outcome in
            keep(outcome, of: generation)
            completion(outcome)
        }
    }

    private func keep(_ outcome: TrustOutcome, of generation: UInt64) {
        state.withLock { state in
            if state.generation == generation { state.outcome = outcome }
        }
    }
}

/// The legacy spelling of ``SecTrust``.
public typealias SecTrustRef = SecTrust

/// The type identifier of ``SecTrust``, for comparison with ``CFGetTypeID(_:)``.
public func SecTrustGetTypeID() -> CFTypeID { TypeIdentifier.trust.rawValue }
