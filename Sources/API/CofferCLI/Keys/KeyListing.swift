import Foundation
import KeychainClient
import KeychainModel
import Query

/// Prints key items as `find-key` shows them: each key's class and attributes, as `security` prints items.
enum KeyListing {
    /// Prints every key the query `entries` names (of `keyClass` when given, Apple's `kcls` value), one block
    /// each, or one JSON array of them with `json`; errSecItemNotFound when there is none.
    static func print(
        _ entries: [KeychainValue: KeychainValue], keyClass: String?, client: any KeychainClient, command: String, json: Bool = false
    ) throws {
        var query = entries
        if let keyClass { query[.string(QueryKey.keyClass)] = .string(keyClass) }
        query[.string(QueryKey.matchLimit)] = .string(QueryConstant.matchLimitAll)
        query[.string(QueryKey.returnAttributes)] = .bool(true)
        let result = try ItemCommandSupport.run(command) { () throws(KeychainFailure) in
            try client.blocking.copyMatching(QueryDictionary(query))
        }
        guard case .array(let items)? = result else { throw CLIFailure("\(command): unexpected result shape") }
        let keys = items.compactMap { item -> [String: KeychainValue]? in
            guard case .dictionary(let attributes) = item else { return nil }
            return attributes
        }
        if json {
            try JSONOutput.print(keys.map { JSONOutput.item(itemClass: ItemClass.key.rawValue, attributes: $0) })
            return
        }
        let blocks = items.compactMap { item -> String? in
            guard case .dictionary(let attributes) = item else { return nil }
            return ItemPrinter.describe(itemClass: ItemClass.key.rawValue, attributes: attributes)
        }
        Swift.print(blocks.joined(separator: "\n"))
    }
}
