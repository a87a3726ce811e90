import Foundation
import Testing

/// `coffer doctor` says which keychain this shell uses and why, and gives the fix for each problem.
@Suite("coffer doctor", .timeLimit(.minutes(10)))
struct DoctorCommandTests {
    @Test func itNamesTheKeychainAndTheFixForEachProblem() throws {
        let cli = CLIRunner()
        let home = cli.home.deletingLastPathComponent().path
        let environment = ["SSH_AUTH_SOCK": "", "HOME": home, "PATH": "/nonexistent"]
        let first = try cli.run(["doctor"], environment: environment)
        #expect(first.status == 1)
        let lines = first.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("ok      keychain: embedded in \(cli.home.path) (COFFER_HOME)"))
        #expect(lines.contains("ok      reachable: yes"))
        #expect(lines.contains("problem passcode: not set: whoever reads your keychain's files reads its items"))
        #expect(lines.contains("        fix: coffer passcode set"))
        #expect(lines.contains("problem ssh agent: SSH_AUTH_SOCK is not set"))
        #expect(lines.contains("ok      git: git is not installed"))
        #expect(lines.contains("ok      docker: no \(home)/.docker/config.json"))

        #expect(try cli.run(["passcode", "set"], input: "code-1234\n").status == 0)
        let second = try cli.run(["doctor"], environment: environment)
        #expect(second.standardOutput.contains("ok      passcode: set; the keychain is "))
        #expect(!second.standardOutput.contains("problem passcode"))
        #expect(second.standardOutput.contains("for each command alone (no daemon keeps it unlocked between commands"))
        let inASession = try SessionDaemonTests.Session(cli: cli)
        let third = try cli.run(["doctor"], environment: environment.merging(inASession.environment) { $1 })
        #expect(third.standardOutput.contains("the next coffer command starts cofferd --user for this session"))
    }

    @Test func aKeychainFolderThatIsAFileIsAProblemWithItsReason() throws {
        let cli = CLIRunner()
        try FileManager.default.createDirectory(at: cli.home.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("file".utf8).write(to: cli.home)
        let outcome = try cli.run(["doctor"], environment: ["SSH_AUTH_SOCK": ""])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("problem reachable: no: "))
        #expect(outcome.standardOutput.contains("        fix: make COFFER_HOME a folder of yours (mode 0700), or unset it"))
    }
}
