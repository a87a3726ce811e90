import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `security`'s `-w` prints a password that is not printable text in hexadecimal; `--raw` and `-o FILE` give its exact
/// bytes, as `secret-tool lookup` and `pass show` do, for PEM keys and binary secrets.
@Suite("coffer find-…-password --raw and -o", .timeLimit(.minutes(10)))
struct ExactPasswordBytesTests {
    private static let pem = Data("-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----".utf8)
    private static let binary = Data([0x00, 0x41, 0x0A, 0xFF, 0x42])

    @Test func rawWritesTheExactBytes() throws {
        let cli = CLIRunner()
        for (account, secret) in [("pem", Self.pem), ("binary", Self.binary)] {
            let added = try cli.run(["add-generic-password", "-s", "svc", "-a", account, "-w"], inputBytes: secret)
            #expect(added.status == 0, "\(added.standardError)")
            let raw = try cli.run(["find-generic-password", "-s", "svc", "-a", account, "--raw"])
            #expect(raw.status == 0)
            #expect(raw.standardOutputBytes == secret)
        }
        // `-w` keeps security's form: hexadecimal for what is not printable text.
        #expect(try cli.run(["find-generic-password", "-s", "svc", "-a", "binary", "-w"]).standardOutput == "0x00410AFF42\n")
        // A password that is literally "0x41" and the byte 0x41 differ under --raw.
        #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", "literal", "-w", "0x41"]).status == 0)
        #expect(try cli.run(["find-generic-password", "-s", "svc", "-a", "literal", "--raw"]).standardOutputBytes == Data("0x41".utf8))
    }

    @Test func outputWritesANewPrivateFile() throws {
        let cli = CLIRunner()
        #expect(try cli.run(["add-internet-password", "-s", "example.org", "-a", "me", "-w"], inputBytes: Self.pem).status == 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("key.pem").path
        let written = try cli.run(["find-internet-password", "-s", "example.org", "-o", file])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(written.standardOutput.isEmpty)
        #expect(FileManager.default.contents(atPath: file) == Self.pem)
        var status = stat()
        #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
        let again = try cli.run(["find-internet-password", "-s", "example.org", "-o", file])
        #expect(again.status != 0)
        #expect(again.standardError.contains("\(file) already exists; nothing was written (use --force to replace it)"))
        #expect(try cli.run(["find-internet-password", "-s", "example.org", "-o", file, "--force"]).status == 0)
        let both = try cli.run(["find-internet-password", "-s", "example.org", "--raw", "-w"])
        #expect(both.status == 64)
        #expect(both.standardError.contains("--raw and -o write the password alone: give them without -w or -g"))
    }
}
