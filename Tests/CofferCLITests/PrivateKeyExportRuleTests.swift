import Foundation
import Query
import Testing

@testable import CofferCLI

/// `export --private-key` refuses, by the key item's attributes, a key that may not leave the keychain, before
/// reading its bytes (a software key stored with `kSecAttrIsExtractable` false cannot be made from the command line).
@Suite("export refuses keys that may not leave", .timeLimit(.minutes(10)))
struct PrivateKeyExportRuleTests {
    private func refusal(_ attributes: [String: KeychainValue]) -> String? {
        do {
            try PrivateKeyExport.requireExportable(.init(attributes: attributes, name: "the private key “k”"), command: "export")
            return nil
        } catch let failure as CLIFailure {
            return failure.message
        } catch {
            return "\(error)"
        }
    }

    @Test func onlyAnExtractableSoftwareKeyIsExported() {
        #expect(refusal(["extr": .bool(true)]) == nil)
        #expect(refusal(["extr": .number(1)]) == nil)
        let notExtractable = "export: the private key “k” is not extractable (kSecAttrIsExtractable is false); it cannot be exported"
        #expect(refusal(["extr": .bool(false)]) == notExtractable)
        #expect(refusal(["extr": .number(0)]) == notExtractable)
        #expect(refusal([:]) == notExtractable)
        // A key the keychain keeps is refused for that reason, whatever its other attributes say.
        #expect(
            refusal(["extr": .bool(true), QueryKey.tokenID: .string(KeyItem.secureEnclaveTokenID)])
                == "export: the private key “k” never leaves the keychain (it was made inside it, as a Secure Enclave key is); it cannot be exported")
    }
}
