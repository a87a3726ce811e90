import Foundation
import KeychainModel
import Query
import Testing

@testable import CofferCLI

@Suite("coffer prints items as macOS security does", .timeLimit(.minutes(10)))
struct ItemPrinterTests {
    /// A key's reference is shown by its class, never with the key's bytes.
    @Test func aReferenceShowsItsClassOnly() {
        let reference = ItemReference(itemClass: .key, attributes: ["class": "keys", "kcls": 1], data: Data([0x04, 0xAB]))
        let printed = ItemPrinter.describe(itemClass: "keys", attributes: ["kcls": 1, "v_Ref": .itemReference(reference)])
        #expect(printed == "class: \"keys\"\nattributes:\n    \"kcls\"<sint32>=1\n    \"v_Ref\"<ref class=keys>")
    }

    /// A label or attribute holding a terminal escape sequence or a newline is printed escaped: it can neither
    /// redraw the terminal nor pass for another attribute line.
    @Test func controlCharactersInAttributesArePrintedEscaped() {
        let printed = ItemPrinter.describe(
            itemClass: "genp",
            attributes: [
                "labl": "\u{1B}]0;owned\u{7}\u{1B}[2J", "acct": "me\n    \"svce\"<blob>=\"bank\"",
                "gena": .data(Data("ok\u{1B}[31m".utf8)), "desc": .data(Data("tab\tok".utf8)),
            ])
        #expect(!printed.contains("\u{1B}"))
        #expect(printed.split(separator: "\n").count == 6)
        #expect(printed.contains("\"labl\"<blob>=\"\\x1B]0;owned\\x07\\x1B[2J\""))
        #expect(printed.contains("\"acct\"<blob>=\"me\\n    \"svce\"<blob>=\"bank\"\""))
        #expect(printed.contains("\"gena\"<blob>=0x6F6B1B5B33316D"))
        #expect(printed.contains("\"desc\"<blob>=\"tab\tok\""))
    }
}
