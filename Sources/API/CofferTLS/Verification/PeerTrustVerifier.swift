import Dispatch
import Foundation
import Security

/// The verification of a TLS peer's certificates with Coffer's trust evaluation and, optionally, a pin set: what
/// swift-nio-ssl's custom verification callback runs (``callback``, ``clientHandler(context:)``,
/// ``serverHandler(context:)``), and what any other code may call with a chain (``evaluate(_:completion:)``).
///
/// The chain the peer presented becomes a `SecTrust` with `SecPolicyCreateSSL` for the peer's role
/// (a server, with the host name to match; or a client), the ``anchors`` (the system's by default), and the verify
/// date; trust evaluation must succeed, then the ``pins``, when given, must match a certificate of the chain it
/// built (or have expired; see ``PinSet``).
///
/// Nothing blocks: the evaluation runs on the `Security` module's evaluation thread
/// (`SecTrustEvaluateAsyncWithError`) and the result comes back through a completion, so an event loop
/// or a Swift task that asks is never held.
public struct PeerTrustVerifier: Sendable {
    /// The role of the peer whose certificates are verified.
    public enum Peer: Sendable, Hashable {
        /// A server, as a client verifies it: with the host name its certificate must carry (a DNS name, or an IP
        /// address written as such), or nil to check no name.
        case server(hostname: String?)
        /// A client, as a server verifies it for mutual TLS: its certificate must allow client authentication.
        case client
    }

    /// The role of the peer.
    public let peer: Peer
    /// The anchors chains must end at.
    public let anchors: TrustAnchors
    /// The pins a trusted chain must match, or nil for trust evaluation alone.
    public let pins: PinSet?
    /// The date certificates and pins are checked at, or nil for the time of each verification.
    public let verifyDate: Date?
    /// Called with every outcome (to log a refusal's explanation, or to count), on the thread that decided it.
    public let onOutcome: (@Sendable (PeerVerificationOutcome) -> Void)?

    /// A verifier of `peer` against `anchors`, with `pins` when given.
    public init(
        peer: Peer, anchors: TrustAnchors = .system, pins: PinSet? = nil, verifyDate: Date? = nil,
        onOutcome: (@Sendable (PeerVerificationOutcome) -> Void)? = nil
    ) {
        self.peer = peer
        self.anchors = anchors
        self.pins = pins
        self.verifyDate = verifyDate
        self.onOutcome = onOutcome
    }

    /// The SSL policy for the peer's role.
    var policy: SecPolicy {
        switch peer {
        case .server(let hostname): SecPolicyCreateSSL(true, hostname.map { $0 as NSString })
        case .client: SecPolicyCreateSSL(false, nil)
        }
    }

    /// Verifies `chain` (the peer's leaf first, then the certificates it sent with it) and calls `completion` once
    /// with the outcome, on the evaluation's thread or, when `chain` is empty, at once. Returns at once.
    public func evaluate(_ chain: [SecCertificate], completion: @escaping @Sendable (PeerVerificationOutcome) -> Void) {
        let finish: @Sendable (PeerVerificationOutcome) -> Void = { [onOutcome] outcome in
            onOutcome?(outcome)
            completion(outcome)
        }
        var made: SecTrust?
        guard !chain.isEmpty, SecTrustCreateWithCertificates(NSArray(array: chain), policy, &made) == errSecSuccess, let trust = made else {
            finish(.rejected(PeerTrustFailure(.noCertificate, "the peer presented no certificate")))
            return
        }
        anchors.apply(to: trust)
        if let verifyDate { _ = SecTrustSetVerifyDate(trust, verifyDate as NSDate) }
        let pins = pins
        let date = verifyDate
        _ = SecTrustEvaluateAsyncWithError(trust, DispatchQueue.global()) { trust, trusted, error in
            finish(Self.decide(trust, trusted: trusted, error: error, pins: pins, at: date ?? Date()))
        }
    }

    /// ``evaluate(_:completion:)`` for `async` code: suspends, holding no thread, until the outcome.
    public func evaluate(_ chain: [SecCertificate]) async -> PeerVerificationOutcome {
        await withCheckedContinuation { continuation in
            evaluate(chain) { continuation.resume(returning: $0) }
        }
    }

    /// The outcome of an evaluated trust: refused with the evaluation's status, or checked against `pins`.
    static func decide(_ trust: SecTrust, trusted: Bool, error: CFError?, pins: PinSet?, at date: Date) -> PeerVerificationOutcome {
        guard trusted else {
            let status = error.map { OSStatus(truncatingIfNeeded: $0.code) } ?? errSecNotTrusted
            let explanation = error?.localizedDescription ?? "the peer's certificate is not trusted"
            return .rejected(PeerTrustFailure(.untrusted(status: status), explanation))
        }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        guard let pins else { return .trusted(chain: chain, pins: nil) }
        let check = pins.check(chain: chain, at: date)
        guard check.allowsConnection else {
            let presented = chain.compactMap { try? SPKIPin(certificate: $0).base64 }.joined(separator: ", ")
            return .rejected(PeerTrustFailure(.pinMismatch, "no key of the trusted chain is pinned (the chain's keys: \(presented))"))
        }
        return .trusted(chain: chain, pins: check)
    }
}
