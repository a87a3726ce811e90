import Foundation
import Query
import Testing

/// The one rendering of dictionaries for errors, descriptions and diagnostics: secrets by length only.
@Suite("Redacted rendering", .timeLimit(.minutes(10)))
struct RedactedRenderingTests {
    private static let secret = "Zq7-hunter2-VxW9"

    @Test func secretsAreShownByLengthAtAnyDepth() {
        let rendered = RedactedRendering.render([
            "class": "inet", "acct": "alice", "v_Data": .data(Data(Self.secret.utf8)), "binn": .string(Self.secret),
            "u_CredRef": .data(Data(Self.secret.utf8)),
            "m_ItemList": .array([.dictionary(["v_Data": .data(Data(Self.secret.utf8))])]),
        ])
        #expect(!rendered.contains(Self.secret))
        #expect(rendered.contains("v_Data: <redacted 16 bytes>"))
        #expect(rendered.contains("binn: <redacted 16 bytes>"))
        #expect(rendered.contains("u_CredRef: <redacted 16 bytes>"))
        #expect(rendered.contains("acct: \"alice\""))
        #expect(rendered.hasPrefix("{acct: "))  // keys sorted
    }

    @Test func aBareDataResultIsTheSecret() {
        #expect(RedactedRendering.render(result: .data(Data(Self.secret.utf8))) == "<redacted 16 bytes>")
        #expect(RedactedRendering.render(result: .array([.data(Data([1, 2]))])) == "[<redacted 2 bytes>]")
        #expect(RedactedRendering.render(.data(Data([1, 2]))) == "<0102>")  // an attribute's data is not secret
        #expect(RedactedRendering.render(.data(Data(count: 33))) == "<33 bytes>")
    }

    @Test func secretKeysAreTheValueTheCredentialAndTheSchemasSecretFields() {
        for key in ["v_Data", "u_CredRef", "binn", "bini", "bin0", "bin3"] { #expect(RedactedRendering.isSecret(key)) }
        for key in ["acct", "gena", "v_PersistentRef", "labl"] { #expect(!RedactedRendering.isSecret(key)) }
    }
}
