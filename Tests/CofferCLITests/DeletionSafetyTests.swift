import Foundation
import Testing

/// A delete needs something to delete: with no attribute the password commands refuse, as `secret-tool clear` and
/// `pass rm` do, and `--all` says how many items it deletes.
@Suite("coffer delete-…-password needs a selector or --all", .timeLimit(.minutes(10)))
struct DeletionSafetyTests {
    @Test(arguments: ["generic", "internet"])
    func noSelectorDeletesNothing(kind: String) throws {
        let cli = CLIRunner()
        #expect(try cli.run(["add-\(kind)-password", "-s", "one", "-a", "me", "-w", "pw"]).status == 0)
        let refused = try cli.run(["delete-\(kind)-password"])
        #expect(refused.status == 64)
        #expect(
            refused.standardError.contains(
                "name the items to delete with at least one attribute (-s, -a, -l…), or give --all to delete every \(kind) password"))
        #expect(try cli.run(["find-\(kind)-password", "-s", "one", "-w"]).standardOutput == "pw\n")
    }

    @Test func allSaysHowManyAndDeletesThem() throws {
        let cli = CLIRunner()
        for service in ["one", "two", "three"] {
            #expect(try cli.run(["add-generic-password", "-s", service, "-a", "me", "-w", "pw"]).status == 0)
        }
        #expect(try cli.run(["add-internet-password", "-s", "example.org", "-a", "me", "-w", "pw"]).status == 0)
        let mixed = try cli.run(["delete-generic-password", "--all", "-s", "one"])
        #expect(mixed.status == 64)
        #expect(mixed.standardError.contains("--all deletes every generic password: give it without attributes"))

        let deleted = try cli.run(["delete-generic-password", "--all"])
        #expect(deleted.status == 0, "\(deleted.standardError)")
        #expect(deleted.standardError == "coffer: This deletes 3 generic passwords.\n")
        #expect(try cli.run(["find-generic-password", "-s", "two"]).status == 44)
        // The other class is untouched.
        #expect(try cli.run(["find-internet-password", "-s", "example.org", "-w"]).standardOutput == "pw\n")
        let nothing = try cli.run(["delete-generic-password", "--all"])
        #expect(nothing.status == 44)
        #expect(nothing.standardError == "coffer: delete-generic-password: there are no generic passwords to delete\n")
    }
}
