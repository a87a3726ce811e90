import Foundation
import KeychainModel
import Query
import Testing

@testable import CofferCLI

@Suite("coffer prints items as macOS security does")
struct ItemPrinterTests {
    /// A key's reference is shown by its class, never with the key's bytes.
    @Test func aReferenceShowsItsClassOnly() {
        let reference = ItemReference(itemClass: .key, attributes: ["class": "keys", "kcls": 1], data: Data([0x04, 0xAB]))
        let printed = ItemPrinter.describe(itemClass: "keys", attributes: ["kcls": 1, "v_Ref": .itemReference(reference)])
        #expect(printed == "class: \"keys\"\nattributes:\n    \"kcls\"<sint32>=1\n    \"v_Ref\"<ref class=keys>")
    }
}
