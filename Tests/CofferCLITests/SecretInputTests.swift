import Foundation
import Testing

@testable import CofferCLI

@Suite("coffer reads secrets from standard input whole", .timeLimit(.minutes(10)))
struct SecretInputTests {
    private static let pem = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIBm1n0Yb3bV3kYlqvG6W+0E0oCzZ2z6c3oK0b7hN6v1x
        -----END PRIVATE KEY-----
        """

    /// How `find … -w` prints a secret, as `security` does: its text when printable, else `0x` and hex.
    private static func printed(_ secret: String) -> String {
        guard secret.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) else { return secret }
        return "0x" + secret.utf8.map { String(format: "%02X", $0) }.joined()
    }

    @Test func aPipedMultiLineSecretIsStoredWholeWithOneTrailingNewlineDropped() throws {
        let cli = CLIRunner()
        let add = try cli.run(["add-generic-password", "-s", "pem", "-a", "me", "-w"], input: Self.pem + "\n")
        #expect(add.status == 0)
        let find = try cli.run(["find-generic-password", "-s", "pem", "-w"])
        #expect(find.standardOutput == Self.printed(Self.pem) + "\n")
    }

    @Test func exactlyOneLineEndingIsDroppedAndOnlyAtTheEnd() throws {
        let cli = CLIRunner()
        let cases: [(String, String)] = [
            ("crlf", "line one\r\nline two\r\n"),  // → "line one\r\nline two"
            ("two-newlines", "secret\n\n"),  // → "secret\n"
            ("no-newline", "secret"),  // → "secret"
            ("inner-cr", "a\rb\n"),  // → "a\rb"
        ]
        let expected = ["crlf": "line one\r\nline two", "two-newlines": "secret\n", "no-newline": "secret", "inner-cr": "a\rb"]
        for (account, input) in cases {
            #expect(try cli.run(["add-generic-password", "-s", "svc", "-a", account, "-w"], input: input).status == 0)
            let find = try cli.run(["find-generic-password", "-s", "svc", "-a", account, "-w"])
            #expect(find.standardOutput == Self.printed(expected[account]!) + "\n", "\(account)")
        }
    }

    @Test func aSecretLongerThanALineBufferIsKeptWhole() throws {
        let cli = CLIRunner()
        let secret = String(repeating: "0123456789abcdef", count: 1024)  // 16 KiB, no newline inside
        #expect(try cli.run(["add-generic-password", "-s", "long", "-a", "me", "-w"], input: secret + "\n").status == 0)
        #expect(try cli.run(["find-generic-password", "-s", "long", "-w"]).standardOutput == secret + "\n")
    }

    @Test func aSecretOfExactly16MiBIsAcceptedAndOneByteMoreIsRefusedWithNothingWritten() throws {
        let cli = CLIRunner()
        let limit = 16 << 20
        let atLimit = Data(repeating: UInt8(ascii: "x"), count: limit) + Data("\n".utf8)
        #expect(try cli.run(["add-generic-password", "-s", "big", "-a", "fits", "-w"], inputBytes: atLimit).status == 0)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-over-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try (Data(repeating: UInt8(ascii: "y"), count: limit + 1) + Data("\n".utf8)).write(to: file)
        let over = try cli.run(["add-generic-password", "-s", "big", "-a", "over", "-w"], inputFile: file)
        #expect(over.status != 0)
        #expect(
            over.standardError
                == "coffer: the password on standard input is longer than 16 MiB, the largest value a keychain item holds; nothing was written\n")
        #expect(try cli.run(["find-generic-password", "-s", "big", "-a", "over"]).status == 44)

        // From a pipe too, where the reader stops early and the writer is left with unread bytes.
        let piped = try cli.run(["add-generic-password", "-s", "big", "-a", "piped", "-w"], inputBytes: Data(count: limit + 4096))
        #expect(piped.status != 0)
        #expect(try cli.run(["find-generic-password", "-s", "big", "-a", "piped"]).status == 44)
    }

    @Test func emptyInputIsRefused() throws {
        let outcome = try CLIRunner().run(["add-generic-password", "-s", "svc", "-a", "me", "-w"], input: "")
        #expect(outcome.status != 0)
        #expect(outcome.standardError == "coffer: no password on standard input\n")
    }

    @Test func aPasscodeLineLongerThanTheLimitIsRefusedNotCut() throws {
        let cli = CLIRunner()
        let long = String(repeating: "p", count: 5000)
        let set = try cli.run(["passcode", "set"], input: long + "\n")
        #expect(set.status != 0)
        #expect(set.standardError == "coffer: the new passcode is longer than 4096 bytes; nothing was changed\n")
        #expect(try cli.run(["status"]).standardOutput.contains("passcode: not set"))
        // 4096 bytes exactly, with a CRLF ending, is accepted and unlocks with the same line.
        let exact = String(repeating: "q", count: 4096)
        #expect(try cli.run(["passcode", "set"], input: exact + "\r\n").status == 0)
        #expect(try cli.run(["unlock"], input: exact + "\n").status == 0)
    }

    @Test func readToEndDropsOneLineEnding() throws {
        func read(_ bytes: [UInt8], limit: Int = 16) throws(SecretInput.Failure) -> [UInt8] {
            var descriptors: [Int32] = [0, 0]
            _ = pipe(&descriptors)
            _ = bytes.withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
            close(descriptors[1])
            defer { close(descriptors[0]) }
            return try SecretInput.readToEnd(from: descriptors[0], limit: limit, what: "password").withUnsafeBytes { Array($0) }
        }
        #expect(try read(Array("ab\n".utf8)) == Array("ab".utf8))
        #expect(try read(Array("ab\r\n".utf8)) == Array("ab".utf8))
        #expect(try read(Array("\n".utf8)) == [])
        #expect(try read(Array("ab\n\n".utf8)) == Array("ab\n".utf8))
        #expect(try read(Array(repeating: 0x41, count: 16) + Array("\r\n".utf8)) == Array(repeating: 0x41, count: 16))
        #expect(throws: SecretInput.Failure.tooLarge(what: "password", limit: 16)) { try read(Array(repeating: 0x41, count: 17)) }
        #expect(throws: SecretInput.Failure.empty(what: "password")) { try read([]) }
    }
}
