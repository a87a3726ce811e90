import Foundation
import Testing

@testable import CofferCLI

@Suite("coffer refuses arguments that are not valid UTF-8", .timeLimit(.minutes(10)))
struct ArgumentEncodingTests {
    @Test func anInvalidServiceNameIsRefusedAndDoesNotCollideWithAnother() throws {
        let cli = CLIRunner()
        let first = try cli.runShell(#"exec "$COFFER" add-generic-password -s "$(printf '\377')" -a me -w one"#)
        #expect(first.status == 64)
        #expect(
            first.standardError
                == "coffer: argument 3 is not valid UTF-8; keychain names and values are Unicode text, so it is refused rather than altered\n")
        // Before the fix both names became U+FFFD: the second add with -U overwrote the first item.
        #expect(try cli.run(["add-generic-password", "-s", "\u{FFFD}", "-a", "me", "-w", "kept"]).status == 0)
        let second = try cli.runShell(#"exec "$COFFER" add-generic-password -U -s "$(printf '\376')" -a me -w overwritten"#)
        #expect(second.status == 64)
        #expect(try cli.run(["find-generic-password", "-s", "\u{FFFD}", "-a", "me", "-w"]).standardOutput == "kept\n")
    }

    @Test func findAndTheSecretAreCheckedTooAndTheBytesAreNeverPrinted() throws {
        let cli = CLIRunner()
        let find = try cli.runShell(#"exec "$COFFER" find-generic-password -a "$(printf 'x\300y')""#)
        #expect(find.status == 64)
        #expect(find.standardError.contains("argument 3 is not valid UTF-8"))
        let secret = try cli.runShell(#"exec "$COFFER" add-generic-password -s svc -a me -w "$(printf 'secret\351')""#)
        #expect(secret.status == 64)
        #expect(!secret.standardError.contains("secret"))
    }

    @Test func validArgumentsPass() {
        var storage: [UnsafeMutablePointer<CChar>?] = ["coffer", "-s", "caf\u{E9}", "\u{1F511}"].map { (text: String) in strdup(text) }
        defer { storage.forEach { free($0) } }
        #expect(ArgumentEncoding.firstInvalidArgument(count: 4, arguments: &storage) == nil)
        let invalid = strdup("a\u{FF}")!  // UTF-8 "a" + C3 BF, made invalid below
        invalid[1] = CChar(bitPattern: 0xFF)
        invalid[2] = 0
        storage.append(invalid)
        #expect(ArgumentEncoding.firstInvalidArgument(count: 5, arguments: &storage) == 4)
    }
}
