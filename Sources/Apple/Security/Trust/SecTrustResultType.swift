/// The outcome of a trust evaluation, with Apple's raw values, as ``SecTrustGetTrustResult(_:_:)`` reports it.
public enum SecTrustResultType: UInt32, Sendable {
    /// Not evaluated, or the evaluation could not be made.
    case invalid = 0
    /// Trusted because the user's trust settings say so. Coffer has no user trust settings and does not return it.
    case proceed = 1
    /// Deprecated by Apple in macOS 10.9 and iOS 7; never returned.
    @available(*, deprecated)
    case confirm = 2
    /// Denied by the user's trust settings. Coffer has none and does not return it.
    case deny = 3
    /// Trusted: the chain ends at a trusted anchor and meets every policy.
    case unspecified = 4
    /// Not trusted for a reason a person could choose to override: an untrusted or missing anchor, a missing
    /// intermediate, an expired certificate, a host name or usage that does not match.
    case recoverableTrustFailure = 5
    /// Not trusted, and no override is possible: a key the evaluation cannot use.
    case fatalTrustFailure = 6
    /// A failure other than of trust itself.
    case otherError = 7
}
