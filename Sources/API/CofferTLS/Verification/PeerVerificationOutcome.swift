import Security

/// What a ``PeerTrustVerifier`` decided about one peer.
public enum PeerVerificationOutcome: Sendable, Hashable {
    /// The peer's chain is trusted: the chain trust evaluation built (leaf first, to the anchor) and, when a pin set
    /// was given, what checking it found (a match, or an expired set that no longer enforces).
    case trusted(chain: [SecCertificate], pins: PinCheck?)
    /// The peer is refused, and why.
    case rejected(PeerTrustFailure)

    /// Whether the connection may go on.
    public var isTrusted: Bool {
        if case .trusted = self { return true }
        return false
    }

    /// The failure, when the peer was refused.
    public var failure: PeerTrustFailure? {
        if case .rejected(let failure) = self { return failure }
        return nil
    }
}
