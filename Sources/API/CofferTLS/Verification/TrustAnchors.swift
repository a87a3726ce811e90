import Foundation
import Security

/// The certificates a ``PeerTrustVerifier`` trusts as the ends of chains.
///
/// By default, the system's: Debian's `ca-certificates` bundle, as the `Security` module's `SecTrust` reads it.
/// A private PKI (an internal CA, a test CA) is trusted with ``only(_:)``, or with ``systemAnd(_:)`` next to the
/// system's.
public struct TrustAnchors: Sendable, Hashable {
    /// Anchors trusted besides (or instead of) the system's.
    public let certificates: [SecCertificate]
    /// Whether the system's anchors are trusted too.
    public let includesSystemAnchors: Bool

    /// The system's anchors only.
    public static let system = TrustAnchors(certificates: [], includesSystemAnchors: true)

    /// `certificates` only, not the system's anchors (a private PKI).
    public static func only(_ certificates: [SecCertificate]) -> TrustAnchors {
        TrustAnchors(certificates: certificates, includesSystemAnchors: false)
    }

    /// The system's anchors and `certificates`.
    public static func systemAnd(_ certificates: [SecCertificate]) -> TrustAnchors {
        TrustAnchors(certificates: certificates, includesSystemAnchors: true)
    }

    /// Sets these anchors on `trust`, with Apple's calls.
    func apply(to trust: SecTrust) {
        guard !(certificates.isEmpty && includesSystemAnchors) else { return }
        _ = SecTrustSetAnchorCertificates(trust, NSArray(array: certificates))
        _ = SecTrustSetAnchorCertificatesOnly(trust, !includesSystemAnchors)
    }
}
