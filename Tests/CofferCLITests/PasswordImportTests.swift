import Foundation
import Testing
import TestProcesses

/// `coffer import --from`: the logins of pass, KeePassXC, Bitwarden and Credential Exchange exports become password
/// items, 500 to a transaction, on both transports; importing again adds nothing; what is left out is reported
/// with its reason; a broken export is refused with a message naming the problem.
@Suite("coffer import --from", .serialized, .timeLimit(.minutes(10)))
struct PasswordImportTests {
    static let keePassXC = """
        "Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"
        "Root","Mail","ann","p@ss,wo""rd","https://mail.example.com","line one
        line two","","0","2026-01-01",""
        "Root/Work","AWS","admin","pw2","aws.amazon.com:8443/console","","otpauth://totp/aws?secret=ABC","0","",""
        "Root","Router","admin","r0uter","","","","0","",""
        "Root/Recycle Bin","Gone","x","y","","","","0","",""
        "Root","Empty","x","","","","","0","",""

        """

    @Test(arguments: CLITransport.allCases) func keePassXCLoginsBecomeItemsOnceAndTheRestIsReported(transport: CLITransport) throws {
        let fixture = try KeyCLIFixture(transport)
        let export = try fixture.file("keepassxc.csv", Data(Self.keePassXC.utf8)).path
        let first = try fixture.cli.run(["import", "--from", "keepassxc", export])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(
            first.standardOutput == """
                imported 3 logins from KeePassXC (\(export)): 3 added, 0 already in the keychain
                not imported, or not in full (3):
                  Root/Work/AWS: imported without its TOTP seed (Coffer keeps no one-time-password seeds)
                  Root/Recycle Bin/Gone: in the recycle bin
                  Root/Empty: no password

                """)
        #expect(!first.standardOutput.contains("pw2") && !first.standardError.contains("pw2"))

        let again = try fixture.cli.run(["import", "--from", "keepassxc", export])
        #expect(again.status == 0)
        #expect(again.standardOutput.hasPrefix("imported 3 logins from KeePassXC (\(export)): 0 added, 3 already in the keychain\n"))

        #expect(try fixture.cli.run(["find-internet-password", "-s", "mail.example.com", "-a", "ann", "-w"]).standardOutput == "p@ss,wo\"rd\n")
        let aws = try fixture.cli.run(["find-internet-password", "-s", "aws.amazon.com", "-a", "admin"]).standardOutput
        #expect(aws.contains("\"port\"<sint32>=8443") && aws.contains("\"path\"<blob>=\"/console\"") && aws.contains("\"ptcl\"<blob>=\"htps\""))
        #expect(aws.contains("\"labl\"<blob>=\"AWS\""))
        let mail = try fixture.cli.run(["find-internet-password", "-s", "mail.example.com"]).standardOutput
        #expect(mail.contains("\"icmt\"<blob>=\"line one\\nline two\""), "\(mail)")
        #expect(try fixture.cli.run(["find-generic-password", "-s", "Router", "-a", "admin", "-w"]).standardOutput == "r0uter\n")
        #expect(try fixture.cli.run(["find-generic-password", "-s", "Gone"]).status == 44)
    }

    @Test func bitwardenLoginsAreImportedAndOtherKindsListed() throws {
        let fixture = try KeyCLIFixture(.embedded)
        let vault = """
            {"encrypted": false, "folders": [], "items": [
              {"id": "1", "type": 1, "name": "GitHub", "notes": "work account", "favorite": false,
               "login": {"username": "octo", "password": "gh-secret", "totp": "JBSWY3DPEHPK3PXP",
                         "uris": [{"match": null, "uri": "https://github.com/login"}]}},
              {"id": "2", "type": 1, "name": "Database", "login": {"username": "db", "password": "db-secret", "uris": []}},
              {"id": "3", "type": 2, "name": "Wi-Fi note", "notes": "x", "secureNote": {"type": 0}},
              {"id": "4", "type": 3, "name": "Visa", "card": {"number": "4111"}}
            ]}
            """
        let export = try fixture.file("bitwarden.json", Data(vault.utf8)).path
        let imported = try fixture.cli.run(["import", "--from", "bitwarden", export])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(
            imported.standardOutput == """
                imported 2 logins from Bitwarden (\(export)): 2 added, 0 already in the keychain
                not imported, or not in full (3):
                  GitHub: imported without its TOTP seed (Coffer keeps no one-time-password seeds)
                  Wi-Fi note: a Bitwarden secure note, not a login
                  Visa: a Bitwarden card, not a login

                """)
        #expect(try fixture.cli.run(["find-internet-password", "-s", "github.com", "-a", "octo", "-w"]).standardOutput == "gh-secret\n")
        #expect(try fixture.cli.run(["find-generic-password", "-s", "Database", "-w"]).standardOutput == "db-secret\n")

        let encrypted = try fixture.file("encrypted.json", Data(#"{"encrypted": true, "passwordProtected": true, "data": "2.AAAA"}"#.utf8)).path
        let refused = try fixture.cli.run(["import", "--from", "bitwarden", encrypted])
        #expect(refused.status == 1)
        #expect(refused.standardError == "coffer: import: \(encrypted) is an encrypted Bitwarden export; export the vault again as .json without a password\n")
    }

    @Test func credentialExchangeLoginsAreImported() throws {
        let fixture = try KeyCLIFixture(.embedded)
        let header = """
            {"version": {"major": 1, "minor": 0}, "exporterRpId": "passwords.example", "exporterDisplayName": "Example",
             "timestamp": 1760000000, "accounts": [{"id": "AQID", "username": "", "email": "me@example.com", "collections": [],
             "items": [
               {"id": "BAUG", "title": "Example Shop", "scope": {"urls": ["https://shop.example.com/"], "androidApps": []},
                "credentials": [
                  {"type": "basic-auth", "username": {"fieldType": "string", "value": "shopper"},
                   "password": {"fieldType": "concealed-string", "value": "cxf-secret"}},
                  {"type": "note", "content": {"fieldType": "string", "value": "gift card inside"}},
                  {"type": "totp", "secret": "JBSWY3DP", "period": 30, "digits": 6, "algorithm": "sha1"}]},
               {"id": "BwgJ", "title": "Passkey only", "credentials": [{"type": "passkey", "credentialId": "AA", "rpId": "example.com",
                "username": "me", "userDisplayName": "Me", "userHandle": "AA", "key": "AA"}]}
             ]}]}
            """
        let export = try fixture.file("export.cxf.json", Data(header.utf8)).path
        let imported = try fixture.cli.run(["import", "--from", "cxf", export])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(
            imported.standardOutput == """
                imported 1 logins from the Credential Exchange file (\(export)): 1 added, 0 already in the keychain
                not imported, or not in full (2):
                  Example Shop: imported without its totp
                  Passkey only: holds no password (passkey)

                """)
        #expect(try fixture.cli.run(["find-internet-password", "-s", "shop.example.com", "-a", "shopper", "-w"]).standardOutput == "cxf-secret\n")
        #expect(try fixture.cli.run(["find-internet-password", "-s", "shop.example.com"]).standardOutput.contains("\"icmt\"<blob>=\"gift card inside\""))

        let future = try fixture.file("v2.json", Data(#"{"version": {"major": 2, "minor": 0}, "accounts": []}"#.utf8)).path
        let refused = try fixture.cli.run(["import", "--from", "cxf", future])
        #expect(refused.standardError == "coffer: import: \(future) is CXF version 2; Coffer reads version 1\n")
    }

    /// A real password store, made by `pass` with a gpg key of a private GNUPGHOME and decrypted by the user's
    /// gpg; an entry encrypted for a key the user does not hold is named, and the import exits 1.
    @Test(.timeLimit(.minutes(3))) func aPassStoreIsDecryptedWithTheUsersGPG() throws {
        try DebianPackages.ensureInstalled(["pass", "gnupg"])
        let fixture = try KeyCLIFixture(.embedded)
        let gnupg = fixture.scratch.appendingPathComponent("gnupg")
        let store = fixture.scratch.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: gnupg, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let environment = [
            "GNUPGHOME": gnupg.path, "PASSWORD_STORE_DIR": store.path, "PATH": "/usr/bin:/bin", "HOME": fixture.scratch.path,
        ]
        defer { _ = try? ChildProcess.run(["/usr/bin/gpgconf", "--kill", "all"], environment: environment) }
        func run(_ command: [String], input: String = "") throws {
            let outcome = try ChildProcess.run(command, input: input, environment: environment, timeout: .seconds(60))
            try #require(outcome.status == 0, "\(command.joined(separator: " ")): \(outcome.errorText)")
        }
        for user in ["importer@example.invalid", "someone-else@example.invalid"] {
            try run(["/usr/bin/gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase", "", "--quick-gen-key", user, "default", "default", "never"])
        }
        try run(["/usr/bin/pass", "init", "importer@example.invalid"])
        try run(
            ["/usr/bin/pass", "insert", "-m", "web/example.org"],
            input: "store-secret\nlogin: alice\nurl: https://example.org/signin\nrecovery: ask Bob\notpauth://totp/x?secret=ABC\n")
        try run(["/usr/bin/pass", "insert", "-m", "server/db"], input: "db-pass\n")
        try run(["/usr/bin/pass", "init", "-p", "theirs", "someone-else@example.invalid"])
        try run(["/usr/bin/pass", "insert", "-m", "theirs/secret"], input: "not-ours\n")
        // The importer no longer holds the other key.
        let fingerprint =
            try ChildProcess.run(
                ["/usr/bin/gpg", "--batch", "--with-colons", "--list-secret-keys", "someone-else@example.invalid"], environment: environment
            )
            .outputText.split(separator: "\n").first { $0.hasPrefix("fpr:") }.map { String($0.split(separator: ":", omittingEmptySubsequences: false)[9]) }
            ?? ""
        try run(["/usr/bin/gpg", "--batch", "--yes", "--delete-secret-keys", fingerprint])

        let imported = try fixture.cli.run(["import", "--from", "pass"], environment: environment)
        #expect(imported.status == 1)
        #expect(
            imported.standardOutput.hasPrefix(
                """
                imported 2 logins from the password store (\(store.path)): 2 added, 0 already in the keychain, 1 unreadable
                not imported, or not in full (2):
                  theirs/secret: gpg could not decrypt it: gpg: decryption failed: No secret key
                  web/example.org: imported without its TOTP seed (Coffer keeps no one-time-password seeds)

                """), "\(imported.standardOutput)")
        #expect(try fixture.cli.run(["find-internet-password", "-s", "example.org", "-a", "alice", "-w"]).standardOutput == "store-secret\n")
        let entry = try fixture.cli.run(["find-internet-password", "-s", "example.org"]).standardOutput
        #expect(entry.contains("\"icmt\"<blob>=\"recovery: ask Bob\"") && entry.contains("\"path\"<blob>=\"/signin\""))
        #expect(!entry.contains("otpauth"))
        #expect(try fixture.cli.run(["find-generic-password", "-s", "server/db", "-w"]).standardOutput == "db-pass\n")
    }

    /// More than one batch: every login arrives, and off a terminal progress is a line per thousand.
    @Test func largeExportsGoInBatchesWithProgressLines() throws {
        let fixture = try KeyCLIFixture(.embedded)
        var rows = [#""Group","Title","Username","Password","URL","Notes""#]
        for index in 0..<1_200 { rows.append(#""Root","entry-\#(index)","user","secret-\#(index)","","""#) }
        let export = try fixture.file("many.csv", Data(rows.joined(separator: "\n").utf8)).path
        let imported = try fixture.cli.run(["import", "--from", "keepassxc", export])
        #expect(imported.status == 0)
        #expect(imported.standardOutput == "imported 1200 logins from KeePassXC (\(export)): 1200 added, 0 already in the keychain\n")
        #expect(imported.standardError == "coffer: imported 1000 of 1200\n")
        #expect(try fixture.cli.run(["find-generic-password", "-s", "entry-1199", "-w"]).standardOutput == "secret-1199\n")
    }

    @Test func brokenExportsAreRefusedWithTheProblemNamed() throws {
        let fixture = try KeyCLIFixture(.embedded)
        let open = try fixture.file("open.csv", Data("\"Group\",\"Title\",\"Password\"\n\"Root\",\"x,y\nz\n".utf8)).path
        #expect(
            try fixture.cli.run(["import", "--from", "keepassxc", open]).standardError
                == "coffer: import: \(open): a quoted field opened on line 2 is never closed\n")
        let other = try fixture.file("other.csv", Data("name,secret\nx,y\n".utf8)).path
        #expect(
            try fixture.cli.run(["import", "--from", "keepassxc", other]).standardError
                == "coffer: import: \(other) is not a KeePassXC CSV export (no Title and Password columns in its first line)\n")
        let garbage = try fixture.file("garbage.json", Data("{\"items\": [{\"type\": \"one\"}]}".utf8)).path
        let refused = try fixture.cli.run(["import", "--from", "bitwarden", garbage])
        #expect(refused.status == 1)
        #expect(refused.standardError == "coffer: import: \(garbage) is not a Bitwarden JSON export (unexpected value at .items[0].type)\n")
        let missing = try fixture.cli.run(["import", "--from", "cxf"])
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("--from cxf needs the export's file."))
        #expect(try fixture.cli.run(["dump-keychain"]).standardOutput.isEmpty)
    }
}
