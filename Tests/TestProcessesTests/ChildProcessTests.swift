import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The way tests start programs: what they print comes back, waits end, and nothing outlives them.
@Suite("Child processes of the tests", .timeLimit(.minutes(10)))
struct ChildProcessTests {
    @Test func outputErrorsAndStatusComeBack() throws {
        let finished = try ChildProcess.run(["/bin/sh", "-c", "cat; echo to-errors >&2; exit 3"], input: "to-output\n")
        #expect(finished.outputText == "to-output\n")
        #expect(finished.errorText == "to-errors\n")
        #expect(finished.termination == ChildProcess.Termination(status: 3, signalled: false))
    }

    @Test func errorsCanJoinTheOutput() throws {
        let finished = try ChildProcess.run(["/bin/sh", "-c", "echo one; echo two >&2"], errors: .sameAsOutput)
        #expect(finished.outputText == "one\ntwo\n")
        #expect(finished.errors.isEmpty)
    }

    /// More than a pipe holds, in both directions at once: neither side waits for the other.
    @Test func largeInputAndOutputDoNotDeadlock() throws {
        let input = Data(repeating: UInt8(ascii: "x"), count: 4 << 20)
        let finished = try ChildProcess.run(["/bin/cat"], input: input)
        #expect(finished.output == input)
    }

    @Test func aChildThatStopsReadingDoesNotStopTheTest() throws {
        let finished = try ChildProcess.run(["/bin/true"], input: Data(repeating: 0, count: 1 << 20))
        #expect(finished.termination.succeeded)
    }

    /// A grandchild that keeps the output open (a helper left sleeping) ends the wait at its deadline, and
    /// the whole group is killed. (Its `sleep 299` is this test's own: `sigtermEndsAChild` runs a `sleep 300` at the
    /// same time.)
    @Test func aDeadlineKillsTheGroupAndSaysWhichCommand() throws {
        let started = ContinuousClock.now
        #expect {
            _ = try ChildProcess.run(["/bin/sh", "-c", "sleep 299 & echo started"], timeout: .seconds(1))
        } throws: { error in
            (error as? ChildProcess.TimedOut)?.description == "/bin/sh -c sleep 299 & echo started did not finish within 1.0 s"
        }
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(Self.gone("sleep 299"))
    }

    /// The test runner blocks SIGTERM in its threads; children start with an empty mask and default handlers.
    @Test func sigtermEndsAChild() throws {
        let child = try ChildProcess(["/bin/sleep", "300"])
        #expect(child.terminate(grace: .seconds(20)) == ChildProcess.Termination(status: SIGTERM, signalled: true))
    }

    /// Only standard input, output and error reach the child, whatever this process has open.
    @Test func onlyTheThreeStandardDescriptorsAreInherited() throws {
        let open = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/dev/null"))
        defer { try? open.close() }
        let listed = try ChildProcess.run(["/bin/ls", "/proc/self/fd"]).outputText.split(separator: "\n")
        // `ls` itself holds one more: the folder it lists.
        #expect(listed.count == 4, "\(listed)")
        #expect(Array(listed.prefix(3)) == ["0", "1", "2"])
    }

    @Test func linesArriveAsTheyArePrinted() throws {
        let child = try ChildProcess(["/bin/sh", "-c", "echo ready; read line; echo got $line"], input: .pipe)
        #expect(child.nextOutputLine() == "ready")
        #expect(child.write(Data("go\n".utf8)))
        #expect(try child.finish().outputText == "got go\n")
    }

    @Test func goingAwayKillsWhatTheChildLeft() throws {
        do {
            let child = try ChildProcess(["/bin/sh", "-c", "sleep 301 & sleep 301"])
            #expect(child.wait(timeout: .milliseconds(200)) == nil)
        }
        #expect(Self.gone("sleep 301"))
    }

    /// Whether, within ten seconds (a killed process takes a moment to end), no process runs `command`.
    private static func gone(_ command: String) -> Bool {
        for _ in 0..<1000 {
            if processes(running: command).isEmpty { return true }
            usleep(10_000)
        }
        return false
    }

    /// PIDs of live processes (not zombies) whose command line is `command`.
    private static func processes(running command: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { entry in
            guard Int(entry) != nil, let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"),
                let status = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8), !status.contains(") Z ")
            else { return false }
            return String(decoding: line.map { $0 == 0 ? 32 : $0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces) == command
        }
    }
}
