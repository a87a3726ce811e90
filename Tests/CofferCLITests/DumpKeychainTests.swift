import Foundation
import KeychainSelection
import KeychainModel
import Testing

/// `dump-keychain` reads item by item (its memory does not grow with the keychain), leaves out invisible items
/// (the Secret Service's attribute postings) unless asked, and says how many it left out.
@Suite("coffer dump-keychain", .timeLimit(.minutes(10)))
struct DumpKeychainTests {
    @Test func invisibleItemsAreCountedNotListedUnlessAsked() throws {
        let cli = CLIRunner()
        defer { try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent()) }
        #expect(try cli.run(["add-generic-password", "-s", "shown", "-a", "me", "-w", "visible-secret"]).status == 0)
        #expect(try cli.run(["add-internet-password", "-s", "example.org", "-a", "me", "-w", "web-secret"]).status == 0)
        let keychain = EmbeddedKeychain(folder: KeychainFolder(url: cli.home), caller: .embedded(environment: [:]))
        for index in 0..<3 {
            _ = try keychain.blocking.add([
                "class": "genp", "svce": "org.freedesktop.secrets.attribute/posting", "acct": .string("item-\(index)"), "invi": true,
                "v_Data": .data(Data()),
            ])
        }

        let dumped = try cli.run(["dump-keychain"])
        #expect(dumped.status == 0)
        #expect(dumped.standardOutput.components(separatedBy: "class: ").count - 1 == 2)
        #expect(!dumped.standardOutput.contains("posting"))
        #expect(dumped.standardError == "coffer: 3 invisible items not listed (the Secret Service's attribute postings); --include-invisible lists them\n")

        let everything = try cli.run(["dump-keychain", "--include-invisible"])
        #expect(everything.standardOutput.components(separatedBy: "class: ").count - 1 == 5)
        #expect(everything.standardError.isEmpty)

        let json = try cli.run(["dump-keychain", "--json", "-d"])
        let items = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(items.compactMap { ($0["attributes"] as? [String: Any])?["v_Data"] as? String }.sorted() == ["visible-secret", "web-secret"])
    }

    @Test func anEmptyKeychainDumpsNothing() throws {
        let cli = CLIRunner()
        defer { try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent()) }
        #expect(try cli.run(["add-generic-password", "-s", "x", "-w", "y"]).status == 0)
        #expect(try cli.run(["delete-generic-password", "-s", "x"]).status == 0)
        #expect(try cli.run(["dump-keychain"]).standardOutput.isEmpty)
        #expect(try cli.run(["dump-keychain", "--json"]).standardOutput == "[]\n")
    }
}
