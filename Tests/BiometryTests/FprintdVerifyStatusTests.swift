import Testing

@testable import Biometry

/// What each `VerifyStatus` result of fprintd's documentation means for a verification.
@Suite(.timeLimit(.minutes(10))) struct FprintdVerifyStatusTests {
    @Test func statusesFollowFprintdsDocumentation() {
        #expect(FprintdVerifyStatus.outcome(result: "verify-match", done: true) == .matched)
        #expect(FprintdVerifyStatus.outcome(result: "verify-no-match", done: true) == .noMatch)
        let retries = [
            "verify-retry-scan", "verify-swipe-too-short", "verify-finger-not-centered", "verify-remove-and-retry",
            "verify-too-fast",
        ]
        for retry in retries {
            #expect(FprintdVerifyStatus.outcome(result: retry, done: false) == nil)
        }
        #expect(FprintdVerifyStatus.outcome(result: "verify-disconnected", done: true) != nil)
        #expect(FprintdVerifyStatus.outcome(result: "verify-unknown-error", done: true) != nil)
        #expect(FprintdVerifyStatus.outcome(result: "verify-something-new", done: false) == nil)
        #expect(FprintdVerifyStatus.outcome(result: "verify-something-new", done: true) != nil)
    }
}
