import Dispatch
import KeychainModel
import Foundation

/// Evaluates the trust (or reuses its last result when no setting changed since) and answers whether its
/// certificate is trusted.
///
/// When it is not, `error` receives a ``CFError`` in ``kCFErrorDomainOSStatus`` with Apple's code for the most
/// serious failure, found in Apple's order: `errSecNotTrusted` (-67843) for a chain ending at a self-signed
/// certificate that is not an anchor, `errSecCreateChainFailed` (-25318) for a chain missing an issuer,
/// `errSecInvalidExtendedKeyUsage` (-67609) for an SSL purpose the leaf does not allow, `errSecHostNameMismatch`
/// (-67602) for a host name it does not carry, `errSecCertificateExpired` (-67818) for a certificate expired or not
/// yet valid at the verify date (Apple reports both so), `errSecInvalidCertificateRef` (-67690) for other RFC 5280
/// violations, `errSecUnsupportedKeySize` (-67735) for a leaf key of a type the evaluation cannot use. The error's
/// underlying error (`NSUnderlyingErrorKey`) carries the same code, as Apple's does. On success `error` is set to
/// nil.
///
/// The calling thread waits while swift-certificates' `async` verifier runs on Coffer's own evaluation thread (see
/// `TrustEvaluationThread`), never on Swift's cooperative pool: calling it from many tasks at once cannot
/// deadlock the pool. In `async` code, ``SecTrustEvaluateAsyncWithError(_:_:_:)`` does not block at all.
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    let outcome = trust.outcome()
    report(outcome)
    error?.pointee = outcome.failure?.error(outcome.chain)
    return outcome.isTrusted
}

/// What ``SecTrustEvaluateAsyncWithError(_:_:_:)`` calls: the trust, whether it is trusted, and the error that
/// ``SecTrustEvaluateWithError(_:_:)`` would give.
public typealias SecTrustWithErrorCallback = (_ trustRef: SecTrust, _ result: Bool, _ error: CFError?) -> Void

/// Evaluates the trust without blocking the calling thread, then calls `result` on `queue` with what
/// ``SecTrustEvaluateWithError(_:_:)`` would return. Returns `errSecSuccess`; `result` is called exactly once.
///
/// As Apple's requires, call it from `queue`: when the trust already has a result, `result` is called at once,
/// before this function returns; otherwise later, on `queue`.
public func SecTrustEvaluateAsyncWithError(_ trust: SecTrust, _ queue: DispatchQueue, _ result: @escaping SecTrustWithErrorCallback) -> OSStatus {
    if let outcome = trust.lastOutcome {
        report(outcome)
        result(trust, outcome.isTrusted, outcome.failure?.error(outcome.chain))
        return errSecSuccess
    }
    let callback = UncheckedCallback(result)
    trust.evaluateInBackground { outcome in
        report(outcome)
        queue.async { callback.call(trust, outcome.isTrusted, outcome.failure?.error(outcome.chain)) }
    }
    return errSecSuccess
}

/// The trust's result: `.unspecified` when trusted by its anchors (Coffer has no user trust settings, so never
/// `.proceed`), `.recoverableTrustFailure` or `.fatalTrustFailure` otherwise (see
/// ``SecTrustEvaluateWithError(_:_:)``).
///
/// As Apple's implementation does (and its header's older wording does not say), a trust without a result,
/// never evaluated or changed since, is evaluated first; `.invalid` is left for evaluations that could not run.
public func SecTrustGetTrustResult(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = trust.outcome().result
    return errSecSuccess
}

private func report(_ outcome: TrustOutcome) {
    Diagnostics.log(
        "SecTrustEvaluateWithError", status: .init(code: outcome.failure?.status ?? errSecSuccess),
        reason: outcome.failure.map { $0.explanation(outcome.chain) }, result: "\(outcome.result)")
}

/// Apple's callback type is not `@Sendable`; the callback is called once, on the caller's queue, as Apple's is.
private struct UncheckedCallback: @unchecked Sendable {
    let call: SecTrustWithErrorCallback

    init(_ call: @escaping SecTrustWithErrorCallback) {
        self.call = call
    }
}
