import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import Query

/// The attributes macOS `security` lets generic-password commands name.
struct GenericPasswordAttributes: PasswordAttributes {
    static let kind = "generic"
    static let itemClass = ItemClass.genericPassword

    @Option(name: .customShort("s"), help: ArgumentHelp("Service name (kSecAttrService).", valueName: "service"))
    var service: String?
    @Option(name: .customShort("a"), help: ArgumentHelp("Account name (kSecAttrAccount).", valueName: "account"))
    var account: String?
    @Option(name: .customShort("l"), help: ArgumentHelp("Label (kSecAttrLabel).", valueName: "label"))
    var label: String?
    @Option(name: .customShort("j"), help: ArgumentHelp("Comment (kSecAttrComment).", valueName: "comment"))
    var comment: String?
    @Option(name: .customShort("D"), help: ArgumentHelp("Kind (kSecAttrDescription).", valueName: "kind"))
    var kind: String?
    @Option(name: .customShort("G"), help: ArgumentHelp("Generic attribute value (kSecAttrGeneric).", valueName: "value"))
    var generic: String?

    static let attributeFlags: [String: String] = [
        "s": QueryKey.service, "a": QueryKey.account, "l": QueryKey.label, "j": QueryKey.comment,
        "D": QueryKey.description, "G": QueryKey.generic,
    ]

    var flagValues: [String: String] {
        ["s": service, "a": account, "l": label, "j": comment, "D": kind, "G": generic].compactMapValues { $0 }
    }

    static func entries(_ values: [String: String]) -> [KeychainValue: KeychainValue]? {
        var entries: [KeychainValue: KeychainValue] = [.string(QueryKey.itemClass): .string(itemClass.rawValue)]
        for (flag, value) in values {
            guard let code = attributeFlags[flag] else { return nil }
            entries[.string(code)] = .string(value)
        }
        return entries
    }
}
