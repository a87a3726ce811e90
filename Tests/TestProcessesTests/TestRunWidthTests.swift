import Foundation
import Testing

/// The test bundle caps how many tests run at once (CChildProcess's `TestRunWidth.c`).
@Suite(.timeLimit(.minutes(10))) struct TestRunWidthTests {
    @Test func theBundleCapsTheTestsInFlight() throws {
        let value = try #require(ProcessInfo.processInfo.environment["SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH"])
        let width = try #require(Int(value))
        #expect(width >= 4)
    }
}
