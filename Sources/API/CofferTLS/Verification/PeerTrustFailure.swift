import Security

/// Why a ``PeerTrustVerifier`` refused a peer's certificates: a ``reason`` that code compares, and an
/// ``explanation`` for people (certificate names and statuses; certificates and pins are public, so nothing secret).
public struct PeerTrustFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the peer was refused.
    public enum Reason: Sendable, Hashable {
        /// The peer presented no certificate.
        case noCertificate
        /// The certificate at this index of what the peer presented could not be read.
        case unreadableCertificate(index: Int)
        /// Trust evaluation failed with this status, as `SecTrustEvaluateWithError` reports it: for
        /// instance `errSecCertificateExpired` (-67818), `errSecNotTrusted` (-67843), `errSecHostNameMismatch`
        /// (-67602), `errSecCreateChainFailed` (-25318).
        case untrusted(status: OSStatus)
        /// The chain is trusted, but no certificate of it carries a key of the enforced ``PinSet``.
        case pinMismatch
    }

    /// Why the peer was refused, for code.
    public let reason: Reason
    /// Why the peer was refused, for people.
    public let explanation: String

    /// A failure with its reason and explanation.
    public init(_ reason: Reason, _ explanation: String) {
        self.reason = reason
        self.explanation = explanation
    }

    /// The explanation.
    public var description: String { explanation }
}
