import Foundation
import Query
import Testing

@testable import Security

/// What `COFFER_LOG=debug` prints: the call, its dictionary with secrets redacted, and the status by name.
@Suite(.timeLimit(.minutes(10))) struct DiagnosticsTests {
    @Test func secretsAreRedactedAndTheStatusIsNamed() {
        let query = ValueBridge.query(
            [
                kSecClass: kSecClassInternetPassword, kSecAttrAccount: "alice", kSecValueData: Data("hunter2".utf8),
                kSecDataInetExtraNotes: Data("private notes".utf8), kSecReturnData: true,
            ] as NSDictionary)
        let line = Diagnostics.line("SecItemAdd(\(Diagnostics.render(query)))", status: .duplicateItem, result: nil)
        #expect(!line.contains("hunter2"))
        #expect(!line.contains("private notes"))
        #expect(line.contains("v_Data: <redacted 7 bytes>"))
        #expect(line.contains("binn: <redacted 13 bytes>"))
        #expect(line.contains("acct: \"alice\""))
        #expect(line.contains("r_Data: true"))
        #expect(line.contains("errSecDuplicateItem (-25299)"))
    }

    @Test func resultsAreRedactedToo() {
        #expect(Diagnostics.render(result: .data(Data("hunter2".utf8))) == "<redacted 7 bytes>")
        let attributes: KeychainValue = .dictionary(["acct": "alice", "v_Data": .data(Data("hunter2".utf8))])
        let rendered = Diagnostics.render(result: .array([attributes]))
        #expect(rendered.contains("<redacted 7 bytes>"))
        #expect(!rendered.contains("hunter2"))
    }

    @Test func successNamesTheStatusWithoutAnExplanation() {
        let line = Diagnostics.line("SecItemDelete({})", status: .success, result: nil)
        #expect(line == "SecItemDelete({}) → errSecSuccess (0)")
    }
}
