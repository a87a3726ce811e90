import Foundation
import Testing

@Suite("coffer passcode and status", .timeLimit(.minutes(10)))
struct PasscodeCommandTests {
    @Test func statusOfANewKeychain() throws {
        let cli = CLIRunner()
        let outcome = try cli.run(["status"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("passcode: not set"))
        #expect(outcome.standardOutput.contains("lock state: unlocked"))
        #expect(outcome.standardOutput.contains("failed attempts: 0"))
    }

    @Test func setChangeRemoveThroughStandardInput() throws {
        let cli = CLIRunner()
        let set = try cli.run(["passcode", "set"], input: "first-code\n")
        #expect(set.status == 0)
        #expect(set.standardOutput == "passcode set\n")

        let status = try cli.run(["status"])
        #expect(status.standardOutput.contains("passcode: set"))
        #expect(status.standardOutput.contains("lock state: before-first-unlock"))

        let change = try cli.run(["passcode", "change"], input: "first-code\nsecond-code\n")
        #expect(change.status == 0)

        let wrongRemove = try cli.run(["passcode", "remove"], input: "first-code\n")
        #expect(wrongRemove.status != 0)
        #expect(wrongRemove.standardError == "coffer: wrong passcode (1 failed attempt)\n")

        let remove = try cli.run(["passcode", "remove"], input: "second-code\n")
        #expect(remove.status == 0)
        #expect(try cli.run(["status"]).standardOutput.contains("passcode: not set"))
    }

    @Test func tooShortPasscodeIsNamed() throws {
        let outcome = try CLIRunner().run(["passcode", "set"], input: "abc\n")
        #expect(outcome.status != 0)
        #expect(outcome.standardError == "coffer: the passcode is too short: use at least 4 characters\n")
    }

    @Test func changeWithoutPasscodeSaysSo() throws {
        let outcome = try CLIRunner().run(["passcode", "change"], input: "abcd\nefgh\n")
        #expect(outcome.status != 0)
        #expect(outcome.standardError == "coffer: no passcode is set\n")
    }

    @Test func missingInputIsNamed() throws {
        let outcome = try CLIRunner().run(["passcode", "set"], input: "")
        #expect(outcome.status != 0)
        #expect(outcome.standardError == "coffer: no new passcode on standard input\n")
    }

    @Test func fifthWrongPasscodeReportsTheWaitAndStatusShowsIt() throws {
        let cli = CLIRunner()
        #expect(try cli.run(["passcode", "set"], input: "right-code\n").status == 0)
        for _ in 1...4 { _ = try cli.run(["passcode", "remove"], input: "wrong-code\n") }
        let fifth = try cli.run(["passcode", "remove"], input: "wrong-code\n")
        #expect(fifth.standardError == "coffer: wrong passcode (5 failed attempts in a row); wait 60 seconds before trying again\n")
        let waiting = try cli.run(["passcode", "remove"], input: "right-code\n")
        #expect(waiting.status != 0)
        #expect(waiting.standardError.hasPrefix("coffer: too many wrong passcodes: wait "))
        let status = try cli.run(["status"]).standardOutput
        #expect(status.contains("failed attempts: 5"))
        #expect(!status.contains("retry after: 0 s"))
    }

    @Test func passcodesNeverAppearInOutputOrLogs() throws {
        let cli = CLIRunner()
        let marker = "Zq9-unique-passcode"
        var everything = ""
        for (arguments, input) in [(["passcode", "set"], "\(marker)\n"), (["passcode", "remove"], "\(marker)x\n"), (["status"], "")] {
            let outcome = try cli.run(arguments, input: input, environment: ["COFFER_LOG": "trace"])
            everything += outcome.standardOutput + outcome.standardError
        }
        #expect(!everything.contains(marker))
        // Every file of the keychain's folder, its audit journal's included.
        let files = FileManager.default.enumerator(at: cli.home, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        #expect(files.contains { $0.lastPathComponent == "head" })
        for file in files where !file.hasDirectoryPath {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(file.lastPathComponent)")
        }
    }

    @Test func keybagDamageIsNamed() throws {
        let cli = CLIRunner()
        #expect(try cli.run(["status"]).status == 0)
        let keybag = cli.home.appendingPathComponent("keybag")
        var bytes = try Data(contentsOf: keybag)
        bytes[bytes.count - 1] ^= 1
        try bytes.write(to: keybag)
        let outcome = try cli.run(["status"])
        #expect(outcome.status != 0)
        #expect(outcome.standardError.hasPrefix("coffer: the keybag is damaged"))
    }
}
