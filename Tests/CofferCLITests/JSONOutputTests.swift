import Foundation
import Testing
import TestProcesses

/// `--json` gives scripts one JSON value with Apple's attribute codes, and no secret unless asked for.
@Suite("coffer --json", .timeLimit(.minutes(10)))
struct JSONOutputTests {
    private static func object(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test func statusFindAndDumpPrintJSON() throws {
        let cli = CLIRunner()
        #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", "me", "-l", "Line\nbreak", "-w", "hunter2"]).status == 0)
        #expect(try cli.run(["add-internet-password", "-s", "example.org", "-a", "you", "-P", "443", "-w", "pw2"]).status == 0)

        let status = try #require(try Self.object(cli.run(["status", "--json"]).standardOutput) as? [String: Any])
        #expect(status["passcodeSet"] as? Bool == false)
        #expect(status["lockState"] as? String == "unlocked")
        #expect(status["keychain"] as? String == cli.home.path)

        let found = try cli.run(["find-generic-password", "-s", "svc", "--json"])
        #expect(found.status == 0, "\(found.standardError)")
        #expect(!found.standardOutput.contains("hunter2"))
        let item = try #require(try Self.object(found.standardOutput) as? [String: Any])
        #expect(item["class"] as? String == "genp")
        let attributes = try #require(item["attributes"] as? [String: Any])
        #expect(attributes["acct"] as? String == "me")
        #expect(attributes["labl"] as? String == "Line\nbreak")
        #expect(attributes["v_Data"] == nil)

        let both = try cli.run(["find-generic-password", "-s", "svc", "--json", "-w"])
        #expect(both.status == 64)

        let dumped = try #require(try Self.object(cli.run(["dump-keychain", "--json"]).standardOutput) as? [[String: Any]])
        #expect(dumped.count == 2)
        #expect(dumped.compactMap { $0["class"] as? String }.sorted() == ["genp", "inet"])
        #expect(!(try cli.run(["dump-keychain", "--json"]).standardOutput.contains("hunter2")))
        let withSecrets = try #require(try Self.object(cli.run(["dump-keychain", "--json", "-d"]).standardOutput) as? [[String: Any]])
        let secrets = withSecrets.compactMap { ($0["attributes"] as? [String: Any])?["v_Data"] as? String }.sorted()
        #expect(secrets == ["hunter2", "pw2"])
        let internet = try #require(dumped.first { $0["class"] as? String == "inet" }?["attributes"] as? [String: Any])
        #expect(internet["port"] as? Int == 443)
    }

    @Test func keysAndCertificatesPrintJSON() throws {
        try DebianPackages.ensureInstalled(["openssl"])
        let fixture = try KeyCLIFixture(.embedded)
        let chain = try TestChain(in: fixture)
        #expect(try fixture.cli.run(["create-key", "--tag", "com.example.json", "-l", "JSON key"]).status == 0)
        let keys = try #require(try Self.object(fixture.cli.run(["find-key", "--tag", "com.example.json", "--json"]).standardOutput) as? [[String: Any]])
        #expect(keys.count == 2)
        #expect(keys.allSatisfy { $0["class"] as? String == "keys" })
        #expect(Set(keys.compactMap { ($0["attributes"] as? [String: Any])?["labl"] as? String }) == ["JSON key"])
        #expect(Set(keys.compactMap { ($0["attributes"] as? [String: Any])?["kcls"] as? Int }) == [0, 1])

        #expect(try fixture.cli.run(["import", fixture.scratch.appendingPathComponent("leaf.pem").path]).status == 0)
        let found = try fixture.cli.run(["find-certificate", "-c", "example.test", "--json"])
        #expect(found.status == 0, "\(found.standardError)")
        let certificates = try #require(try Self.object(found.standardOutput) as? [[String: Any]])
        let certificate = try #require(certificates.first)
        #expect(certificates.count == 1)
        #expect(certificate["pem"] as? String == chain.leaf)
        let printed = try fixture.peer(["openssl", "x509", "-in", "leaf.pem", "-noout", "-fingerprint", "-sha256"]).output
        #expect(
            certificate["sha256"] as? String
                == printed.split(separator: "=").last?.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: ":", with: ""))
        #expect((certificate["attributes"] as? [String: Any])?["labl"] as? String == "example.test")
    }
}
