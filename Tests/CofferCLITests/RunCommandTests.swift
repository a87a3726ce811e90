import Foundation
import TestProcesses
import Testing

/// `coffer run`: secrets reach the command in its environment and in files held in memory, never on its command line
/// or a disk; its exit status and the signals sent to it are its own; a missing item stops before the command starts.
@Suite("coffer run", .serialized, .timeLimit(.minutes(10)))
struct RunCommandTests {
    private static func addItems(_ cli: CLIRunner) throws {
        #expect(try cli.run(["add-generic-password", "-s", "run.example", "-a", "alice", "-w"], input: "RUN-SECRET-ENV\n").status == 0)
        #expect(try cli.run(["add-generic-password", "-s", "run.example", "-a", "bob", "-w"], input: "RUN-SECRET-FILE\n").status == 0)
        #expect(try cli.run(["add-internet-password", "-s", "db.example", "-a", "carol", "-w"], input: "RUN-SECRET-NET\n").status == 0)
    }

    @Test(arguments: CLITransport.allCases) func secretsReachTheCommandInItsEnvironmentAndInMemoryFiles(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let cli = fixture.cli
        try Self.addItems(cli)
        // The command prints what it got, then its own command line, where each file's descriptor points, and the
        // group it runs with.
        let script =
            #"printf '%s\n%s\n' "$TOKEN" "$DATABASE"; cat "$KEY_FILE"; printf '\n%s\n' "$KEY_FILE"; tr '\0' ' ' < /proc/$$/cmdline; printf '\n'; readlink "/proc/$$/fd/${KEY_FILE##*/}"; id -g"#
        let ran = try cli.run([
            "run", "--env", "TOKEN=coffer://generic/run.example/alice", "--env", "DATABASE=coffer://internet/db.example/carol",
            "--file", "KEY_FILE=coffer://generic/run.example/bob", "--", "/bin/sh", "-c", script,
        ])
        #expect(ran.status == 0, "\(ran.standardError)")
        let fields = ran.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(fields.count == 8, "\(ran.standardOutput)")
        guard fields.count == 8 else { return }
        #expect(fields[0] == "RUN-SECRET-ENV" && fields[1] == "RUN-SECRET-NET" && fields[2] == "RUN-SECRET-FILE")
        #expect(fields[3].hasPrefix("/dev/fd/"))
        // Nothing secret on the command line; the file is a memfd, in no folder.
        #expect(!fields[4].contains("RUN-SECRET") && fields[4].hasPrefix("/bin/sh -c "))
        #expect(fields[5] == "/memfd:KEY_FILE (deleted)" && fields[6] == "\(getgid())" && fields[7].isEmpty, "\(fields[5...])")
        #expect(!ran.standardError.contains("RUN-SECRET"))

        // Each read is in the audit journal, by coffer.
        let shown = try cli.run(["audit", "show"]).standardOutput
        #expect(shown.split(separator: "\n").filter { $0.contains(" secret-read copyMatching ") && $0.contains("/coffer ") }.count == 3, "\(shown)")

        // A persistent reference names an item too.
        let reference = try #require(
            shown.split(separator: "\n").first { $0.contains(" item-added add genp ") }.flatMap { $0.split(separator: " ").dropFirst(5).first })
        let byReference = try cli.run(["run", "--env", "VALUE=coffer://ref/\(reference)", "--", "/bin/sh", "-c", "printf %s \"$VALUE\""])
        #expect(byReference.standardOutput == "RUN-SECRET-ENV", "\(byReference.standardError)")
    }

    @Test func exitStatusesAndSignalsAreTheCommands() throws {
        let cli = CLIRunner()
        defer { try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent()) }
        try Self.addItems(cli)
        let reference = ["--env", "TOKEN=coffer://generic/run.example/alice"]
        #expect(try cli.run(["run"] + reference + ["--", "/bin/sh", "-c", "exit 7"]).status == 7)
        #expect(try cli.run(["run"] + reference + ["--", "true"]).status == 0)

        // coffer run becomes the command: a signal sent to it reaches the command, which ends by it.
        let running = try cli.start(["run"] + reference + ["--", "/bin/sh", "-c", "echo started; exec sleep 30"])
        #expect(running.nextOutputLine(timeout: .seconds(30)) == "started")
        kill(running.pid, SIGTERM)
        #expect(running.wait(timeout: .seconds(30)) == ChildProcess.Termination(status: SIGTERM, signalled: true))
    }

    @Test func aMissingItemOrABadReferenceStopsBeforeTheCommandStarts() throws {
        let cli = CLIRunner()
        defer { try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent()) }
        try Self.addItems(cli)
        let marker = cli.home.deletingLastPathComponent().appendingPathComponent("started").path
        let missing = try cli.run([
            "run", "--env", "TOKEN=coffer://generic/run.example/alice", "--file", "KEY=coffer://generic/run.example/nobody", "--", "touch", marker,
        ])
        #expect(missing.status == 44)
        #expect(
            missing.standardError.hasPrefix("coffer: run: --file KEY (coffer://generic/run.example/nobody): errSecItemNotFound (-25300)"),
            "\(missing.standardError)")
        #expect(!FileManager.default.fileExists(atPath: marker))

        let badReference = try cli.run(["run", "--env", "TOKEN=generic/run.example", "--", "touch", marker])
        #expect(badReference.status == 64 && badReference.standardError.contains("generic/run.example is not an item reference"))
        let badName = try cli.run(["run", "--env", "9TOKEN=coffer://generic/run.example", "--", "touch", marker])
        #expect(badName.status == 64 && badName.standardError.contains("9TOKEN is not a variable name"))
        let twice = try cli.run(["run", "--env", "T=coffer://generic/a", "--file", "T=coffer://generic/b", "--", "touch", marker])
        #expect(twice.status == 64 && twice.standardError.contains("T is given twice"))
        let noCommand = try cli.run(["run", "--env", "TOKEN=coffer://generic/run.example"])
        #expect(noCommand.status != 0 && noCommand.standardError.contains("name the command to run after --"))
        let unknown = try cli.run(["run", "--env", "TOKEN=coffer://generic/run.example", "--", "no-such-command-anywhere"])
        #expect(unknown.status == 127 && unknown.standardError.contains("no-such-command-anywhere: command not found"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }
}
