import Foundation
import Keystore
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A writer killed with SIGKILL at random moments always leaves a loadable keybag.
@Suite("Keybag durability under SIGKILL", .timeLimit(.minutes(10)))
struct CrashDurabilityTests {
    static var helperURL: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("CofferTestHelper")
    }

    @Test func keybagSurvivesKillsDuringWrites() throws {
        let iterations = Int(ProcessInfo.processInfo.environment["COFFER_CRASH_ITERATIONS"] ?? "") ?? 100
        let helper = try #require(Self.helperURL.path.isEmpty ? nil : Self.helperURL)
        try #require(FileManager.default.isExecutableFile(atPath: helper.path), "build the CofferTestHelper target first")
        let folder = makeTemporaryFolder()
        let clock = ManualClock()
        try Keystore.open(folder: folder, clock: clock).setPasscode(secret("aaaa"), kdf: .insecureForTesting)

        for iteration in 0..<iterations {
            let writer = try ChildProcess([helper.path, "keybag-churn", folder.url.path], errors: .null)
            _ = writer.nextOutputLine()  // "ready": the churn loop has started
            usleep(UInt32.random(in: 0...20_000))
            writer.kill()

            clock.advance(by: 7200)
            let keystore = try Keystore.open(folder: folder, clock: clock)
            #expect(keystore.isPasscodeSet, "iteration \(iteration)")
            let unlocked =
                (try? keystore.unlock(passcode: secret("aaaa"))) != nil
                || (try? keystore.unlock(passcode: secret("bbbb"))) != nil
            #expect(unlocked, "iteration \(iteration): neither passcode unlocks")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains(".tmp-") }
        // Temporary files may remain after a kill; they never replace the keybag.
        #expect(leftovers.count <= iterations)
    }
}
