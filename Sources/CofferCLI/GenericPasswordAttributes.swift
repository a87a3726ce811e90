import ArgumentParser
import Foundation
import KeychainClient
import Query

/// The attributes macOS `security` lets generic-password commands name.
struct GenericPasswordAttributes: PasswordAttributes {
    static let kind = "generic"
    static let uniqueness = [QueryKey.service, QueryKey.account]

    @Option(name: .customShort("s"), help: "Service name (kSecAttrService).")
    var service: String?
    @Option(name: .customShort("a"), help: "Account name (kSecAttrAccount).")
    var account: String?
    @Option(name: .customShort("l"), help: "Label (kSecAttrLabel).")
    var label: String?
    @Option(name: .customShort("j"), help: "Comment (kSecAttrComment).")
    var comment: String?
    @Option(name: .customShort("D"), help: "Kind (kSecAttrDescription).")
    var kind: String?
    @Option(name: .customShort("G"), help: "Generic attribute value (kSecAttrGeneric).")
    var generic: String?

    /// The named attributes as query entries.
    var entries: [KeychainValue: KeychainValue] {
        var entries: [KeychainValue: KeychainValue] = [.string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword)]
        let pairs: [(String, String?)] = [
            (QueryKey.service, service), (QueryKey.account, account), (QueryKey.label, label),
            (QueryKey.comment, comment), (QueryKey.description, kind), (QueryKey.generic, generic),
        ]
        for case let (code, value?) in pairs { entries[.string(code)] = .string(value) }
        return entries
    }
}
