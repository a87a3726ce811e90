/// What one `VerifyStatus(s result, b done)` signal from fprintd means for a verification.
enum FprintdVerifyStatus {
    /// Statuses after which fprintd keeps verifying: the user should scan again.
    static let retryResults: Set<String> = [
        "verify-retry-scan", "verify-swipe-too-short", "verify-finger-not-centered", "verify-remove-and-retry",
        "verify-too-fast",
    ]

    /// The verification's outcome for `result`, or nil while fprintd keeps verifying.
    static func outcome(result: String, done: Bool) -> BiometricVerification? {
        switch result {
        case "verify-match":
            return .matched
        case "verify-no-match":
            return .noMatch
        case "verify-disconnected":
            return .unavailable(reason: "the fingerprint reader was disconnected during the verification")
        case "verify-unknown-error":
            return .unavailable(reason: "fprintd reported an unknown error (usually a driver problem)")
        case _ where retryResults.contains(result) && !done:
            return nil
        default:
            // A status this code does not know: keep waiting while fprintd does, and give up when it stops.
            return done ? .unavailable(reason: "fprintd ended the verification with \(result)") : nil
        }
    }
}
