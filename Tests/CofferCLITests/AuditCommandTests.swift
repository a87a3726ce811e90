import Foundation
import Testing

/// `coffer audit show` and `coffer audit verify` on both transports: each write, delete and secret read is there with
/// its program and status, no secret is, and a changed journal fails verification.
@Suite("coffer audit", .serialized, .timeLimit(.minutes(10)))
struct AuditCommandTests {
    @Test(arguments: CLITransport.allCases) func writesDeletesAndSecretReadsAreShownAndTheJournalVerifies(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let cli = fixture.cli
        #expect(try cli.run(["add-generic-password", "-s", "audit.example", "-a", "alice", "-w"], input: "AUDIT-SECRET\n").status == 0)
        let found = try cli.run(["find-generic-password", "-s", "audit.example", "-a", "alice", "-w"])
        #expect(found.standardOutput == "AUDIT-SECRET\n")
        #expect(try cli.run(["find-generic-password", "-s", "audit.example", "-a", "alice"]).status == 0)
        #expect(try cli.run(["delete-generic-password", "-s", "audit.example", "-a", "alice"]).status == 0)
        #expect(try cli.run(["delete-generic-password", "-s", "audit.example", "-a", "alice"]).status != 0)

        let shown = try cli.run(["audit", "show", "--json"])
        #expect(shown.status == 0, "\(shown.standardError)")
        let records = shown.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(records.map { $0["event"] as? String } == ["item-added", "secret-read", "item-deleted", "item-deleted"])
        #expect(records.map { $0["status"] as? Int } == [0, 0, 0, -25300])
        #expect(records.map { $0["class"] as? String } == ["genp", "genp", "genp", "genp"])
        #expect(records.prefix(3).allSatisfy { ($0["items"] as? [String])?.count == 1 })
        let callers = records.compactMap { $0["caller"] as? [String: Any] }
        #expect(callers.allSatisfy { ($0["program"] as? String)?.hasSuffix("/coffer") == true && $0["uid"] as? Int == Int(getuid()) })
        #expect(!shown.standardOutput.contains("AUDIT-SECRET") && !shown.standardOutput.contains("alice") && !shown.standardOutput.contains("audit.example"))

        let filtered = try cli.run(["audit", "show", "--program", "no-such-program"])
        #expect(filtered.status == 0 && filtered.standardOutput.isEmpty)
        let lines = try cli.run(["audit", "show", "--since", "1h"])
        #expect(lines.standardOutput.split(separator: "\n").count == 4)
        #expect(lines.standardOutput.contains(" secret-read copyMatching genp "))
        let badSince = try cli.run(["audit", "show", "--since", "yesterday"])
        #expect(badSince.status != 0 && badSince.standardError.contains("--since: yesterday"))

        let verified = try cli.run(["audit", "verify"])
        #expect(verified.status == 0 && verified.standardOutput == "intact: 4 records, #1–#4\n", "\(verified.standardError)")

        // A flipped byte in the journal's segment is found, and named.
        let segment = cli.home.appendingPathComponent("audit/segment-00000001.log")
        var bytes = try Data(contentsOf: segment)
        bytes[bytes.count - 40] ^= 0x20
        try bytes.write(to: segment)
        let damaged = try cli.run(["audit", "verify"])
        #expect(damaged.status != 0)
        #expect(damaged.standardError.contains("audit journal damaged") && damaged.standardError.contains("record #4"), "\(damaged.standardError)")
    }

    @Test(arguments: CLITransport.allCases) func keyUsesPasscodeChangesLocksAndRegistrationsAreShown(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let cli = fixture.cli
        #expect(try cli.run(["create-key", "--enclave", "--tag", "audit.key"]).status == 0)
        #expect(try cli.run(["sign", "--tag", "audit.key"], inputBytes: Data("message".utf8)).status == 0)
        #expect(try cli.run(["passcode", "set"], input: "audit-code\n").status == 0)
        #expect(try cli.run(["lock"]).status == 0)
        #expect(try cli.run(["unlock"], input: "audit-code\n").status == 0)
        if transport == .daemon {
            let added = try cli.run(["apps", "add", "/bin/true", "--app-id", "TEAM.audit", "--by-path"], input: "audit-code\n")
            #expect(added.status == 0, "\(added.standardError)")
        }

        let shown = try cli.run(["audit", "show", "--json"], input: "audit-code\n")
        #expect(shown.status == 0, "\(shown.standardError)")
        let records = shown.standardOutput.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let events = records.map { ($0["event"] as? String ?? "?") + " " + ($0["operation"] as? String ?? "?") }
        let registration = transport == .daemon ? ["registry-changed appsAdd"] : []
        #expect(
            events == [
                "item-added add", "item-added add", "secret-read copyMatching", "key-used sign", "passcode-changed setPasscode",
                "locked lock", "unlocked unlock",
            ] + registration, "\(events)")
        // The enclave key is stored as its two halves; its use names the private half's item, as its addition did.
        let used = try #require(records[3]["items"] as? [String])
        #expect(used.count == 1 && records[..<2].contains { $0["items"] as? [String] == used } && records[3]["class"] as? String == "keys")
        #expect(records.allSatisfy { $0["status"] as? Int == 0 })
        if transport == .daemon {
            #expect(records.last?["detail"] as? String == "registered /usr/bin/true as TEAM.audit")
        }
    }

    @Test func aKeychainWithAPasscodeShowsItsJournalOnlyWithIt() throws {
        let fixture = try KeyCLIFixture(.embedded)
        let cli = fixture.cli
        #expect(try cli.run(["passcode", "set"], input: "1234\n1234\n").status == 0)
        let wrong = try cli.run(["audit", "show"], input: "0000\n")
        #expect(wrong.status != 0)
        let right = try cli.run(["audit", "verify"], input: "1234\n")
        #expect(right.status == 0, "\(right.standardError)")
    }
}
