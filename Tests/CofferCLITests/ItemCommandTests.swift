import Foundation
import Testing

@Suite("coffer item commands (modelled on macOS security)", .timeLimit(.minutes(10)))
struct ItemCommandTests {
    @Test func storeAndReadBackAGenericPassword() throws {
        let cli = CLIRunner()
        let add = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "hunter2"])
        #expect(add.status == 0)
        let find = try cli.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"])
        #expect(find.status == 0)
        #expect(find.standardOutput == "hunter2\n")
    }

    @Test func trailingDashWReadsThePasswordFromStandardInput() throws {
        let cli = CLIRunner()
        #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w"], input: "from-stdin\n").status == 0)
        #expect(try cli.run(["find-generic-password", "-s", "svc", "-w"]).standardOutput == "from-stdin\n")
        let missing = try cli.run(["add-generic-password", "-s", "svc2", "-a", "me", "-w"], input: "")
        #expect(missing.status != 0)
        #expect(missing.standardError == "coffer: no password on standard input\n")
    }

    @Test func duplicateExitsWithSecuritysCodeAndUpdateFlagReplaces() throws {
        let cli = CLIRunner()
        _ = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "one"])
        let duplicate = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "two"])
        #expect(duplicate.status == 45)  // errSecDuplicateItem (-25299) truncated to 8 bits, as `security` does
        #expect(duplicate.standardError.contains("errSecDuplicateItem (-25299)"))
        #expect(duplicate.standardError.contains("-U"))
        #expect(try cli.run(["add-generic-password", "-U", "-s", "svc", "-a", "me", "-l", "label", "-w", "two"]).status == 0)
        #expect(try cli.run(["find-generic-password", "-s", "svc", "-a", "me", "-w"]).standardOutput == "two\n")
    }

    @Test func notFoundExitsWith44() throws {
        let outcome = try CLIRunner().run(["find-generic-password", "-s", "nothing"])
        #expect(outcome.status == 44)  // errSecItemNotFound (-25300)
        #expect(outcome.standardError.hasPrefix("coffer: find-generic-password: errSecItemNotFound (-25300): No item matched the query."))
    }

    @Test func findPrintsAttributesAndDashGPrintsThePasswordOnStandardError() throws {
        let cli = CLIRunner()
        _ = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-l", "My label", "-j", "note", "-D", "kind", "-w", "pw"])
        let find = try cli.run(["find-generic-password", "-s", "svc", "-g"])
        #expect(find.status == 0)
        #expect(find.standardOutput.hasPrefix("class: \"genp\"\nattributes:\n"))
        for line in ["\"acct\"<blob>=\"me\"", "\"svce\"<blob>=\"svc\"", "\"labl\"<blob>=\"My label\"", "\"icmt\"<blob>=\"note\"", "\"desc\"<blob>=\"kind\""] {
            #expect(find.standardOutput.contains(line), "\(line)")
        }
        #expect(!find.standardOutput.contains("pw\n"))
        #expect(find.standardError == "password: \"pw\"\n")
    }

    /// A label another program stored with a terminal escape sequence reaches the terminal escaped.
    @Test func findPrintsALabelsEscapeSequencesEscaped() throws {
        let cli = CLIRunner()
        #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-l", "x\u{1B}[2J\nforged", "-w", "pw"]).status == 0)
        let find = try cli.run(["find-generic-password", "-s", "svc"])
        #expect(find.status == 0)
        #expect(!find.standardOutput.contains("\u{1B}"))
        #expect(find.standardOutput.contains("\"labl\"<blob>=\"x\\x1B[2J\\nforged\""))
    }

    @Test func deleteRemovesAndThenReportsNotFound() throws {
        let cli = CLIRunner()
        _ = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "pw"])
        #expect(try cli.run(["delete-generic-password", "-s", "svc", "-a", "me"]).status == 0)
        #expect(try cli.run(["delete-generic-password", "-s", "svc", "-a", "me"]).status == 44)
    }

    @Test func internetPasswords() throws {
        let cli = CLIRunner()
        let add = try cli.run(["add-internet-password", "-s", "example.com", "-a", "bob", "-r", "htps", "-P", "443", "-p", "/login", "-w", "pw"])
        #expect(add.status == 0)
        #expect(try cli.run(["find-internet-password", "-s", "example.com", "-r", "htps", "-w"]).standardOutput == "pw\n")
        #expect(try cli.run(["find-internet-password", "-s", "example.com", "-P", "80"]).status == 44)
        let attributes = try cli.run(["find-internet-password", "-a", "bob"]).standardOutput
        #expect(attributes.contains("\"port\"<sint32>=443"))
        #expect(attributes.contains("\"ptcl\"<blob>=\"htps\""))
        #expect(try cli.run(["delete-internet-password", "-s", "example.com"]).status == 0)
    }

    @Test func badFlagValuesAreNamed() throws {
        let cli = CLIRunner()
        let protocolCode = try cli.run(["add-internet-password", "-s", "h", "-r", "https", "-w", "x"])
        #expect(protocolCode.status != 0)
        #expect(protocolCode.standardError.contains("-r takes a four-character code"))
        let port = try cli.run(["add-internet-password", "-s", "h", "-P", "70000", "-w", "x"])
        #expect(port.status != 0)
        #expect(port.standardError.contains("-P takes a port from 0 to 65535"))
    }

    @Test func dumpKeychainShowsSecretsOnlyWithDashD() throws {
        let cli = CLIRunner()
        _ = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "gen-secret"])
        _ = try cli.run(["add-internet-password", "-s", "host", "-a", "you", "-w", "inet-secret"])
        let plain = try cli.run(["dump-keychain"])
        #expect(plain.status == 0)
        #expect(plain.standardOutput.contains("class: \"genp\""))
        #expect(plain.standardOutput.contains("class: \"inet\""))
        #expect(!plain.standardOutput.contains("gen-secret"))
        let full = try cli.run(["dump-keychain", "-d"])
        #expect(full.standardOutput.contains("gen-secret"))
        #expect(full.standardOutput.contains("inet-secret"))
        #expect(full.standardError.contains("warning"))
    }

    @Test func accessGroupsFromTheEnvironment() throws {
        let cli = CLIRunner()
        let groups = ["COFFER_ACCESS_GROUPS": "TEAM.app,TEAM.shared"]
        #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "pw"], environment: groups).status == 0)
        let other = try cli.run(["find-generic-password", "-s", "svc", "-w"], environment: ["COFFER_ACCESS_GROUPS": "TEAM.other"])
        #expect(other.status == 44)
        #expect(try cli.run(["find-generic-password", "-s", "svc", "-w"], environment: groups).standardOutput == "pw\n")
    }

    @Test func lockedKeychainWithoutATerminalSaysWhatToDo() throws {
        let cli = CLIRunner()
        _ = try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-w", "pw"])
        #expect(try cli.run(["passcode", "set"], input: "code-1234\n").status == 0)
        let find = try cli.run(["find-generic-password", "-s", "svc", "-w"])
        #expect(find.status == 36)  // errSecInteractionNotAllowed (-25308) truncated to 8 bits
        #expect(find.standardError.contains("errSecInteractionNotAllowed (-25308)"))
        #expect(find.standardError.contains("terminal"))
        #expect(try cli.run(["delete-generic-password", "-s", "svc"]).status == 0)
    }

    @Test func helpWarnsAboutPasswordsOnTheCommandLine() throws {
        let help = try CLIRunner().run(["add-generic-password", "--help"]).standardOutput
        #expect(help.contains("visible to other users in 'ps'"))
    }
}

@Suite("The CLI says why a call was refused", .timeLimit(.minutes(10)))
struct CLIRejectionTests {
    @Test func anOversizedLabelNamesTheAttributeAndTheLimit() throws {
        let runner = CLIRunner()
        let label = String(repeating: "x", count: 70_000)
        let outcome = try runner.run(["add-generic-password", "-s", "svc", "-a", "me", "-l", label, "-w", "pw"])
        #expect(outcome.status == 206)  // errSecParam (-50) truncated to 8 bits, as `security` exits
        #expect(outcome.standardError.contains("errSecParam (-50)"))
        #expect(outcome.standardError.contains("kSecAttrLabel"))
        #expect(outcome.standardError.contains("70000"))
    }
}
