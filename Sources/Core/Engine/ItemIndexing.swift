import Foundation
import ItemStore
import KeychainModel
import Query

/// Turns attributes and searches into the store's blind-index inputs: canonical match bytes per
/// attribute, the uniqueness bytes, and row selections.
enum ItemIndexing {
    /// The match bytes of every attribute the store indexes for this class.
    static func indexValues(of attributes: AttributeSet, in itemClass: ItemClass) -> [String: Data] {
        let indexed = ItemStore.indexedAttributes(for: itemClass)
        var values: [String: Data] = [:]
        for (code, value) in attributes where indexed.contains(code) {
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: itemClass) else { continue }
            values[code] = descriptor.matchKey(of: value)
        }
        return values
    }

    /// The class's uniqueness attributes (reference §1.4), absent ones at their default, as one byte string.
    static func uniqueKey(of attributes: AttributeSet, in itemClass: ItemClass) -> Data {
        var bytes = Data()
        for code in AttributeCatalogue.uniquenessCodes(for: itemClass) {
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: itemClass) else { continue }
            let key = (attributes[code] ?? descriptor.absentValue).map { descriptor.matchKey(of: $0) } ?? Data()
            append(Data(code.utf8), to: &bytes)
            append(key, to: &bytes)
        }
        return bytes
    }

    /// The rows a search may match, by blind index: its indexed filters, the access groups, the
    /// synchronizable filter and the persistent reference. Filters without an index column are
    /// checked after decryption (``SearchRequest/matches(_:)``).
    static func selection(for search: SearchRequest, caller: CallerContext, limit: Int?) -> ItemSelection {
        let itemClass = search.itemClass
        var equal = indexValues(of: search.filters, in: itemClass)
        var anyOf: [String: [Data]] = [:]
        let group = AttributeCatalogue.descriptor(for: QueryKey.accessGroup, in: itemClass)
        if let explicit = search.accessGroup, let group {
            equal[QueryKey.accessGroup] = group.matchKey(of: .string(explicit))
        } else if let groups = caller.searchableGroups, let group {
            anyOf[QueryKey.accessGroup] = groups.map { group.matchKey(of: .string($0)) }
        }
        if let sync = AttributeCatalogue.descriptor(for: QueryKey.synchronizable, in: itemClass) {
            switch search.synchronizable {
            case .nonSynchronizable: equal[QueryKey.synchronizable] = sync.matchKey(of: .number(0))
            case .synchronizable: equal[QueryKey.synchronizable] = sync.matchKey(of: .number(1))
            case .any: break
            }
        }
        var selection = ItemSelection(itemClass: itemClass, equal: equal, anyOf: anyOf, limit: limit)
        switch search.persistentRef?.identity {
        case .uuid(let uuid)?: selection.persistentRef = withUnsafeBytes(of: uuid.uuid) { Data($0) }
        case .legacyRowID(let row)?: selection.rowID = row
        case nil: break
        }
        return selection
    }

    /// Whether every filter of the search has an index column, so rows can be chosen without decrypting.
    static func isFullyIndexed(_ search: SearchRequest) -> Bool {
        let indexed = ItemStore.indexedAttributes(for: search.itemClass)
        return search.filters.codes.allSatisfy(indexed.contains) && search.hostOrSubdomainOf == nil
    }

    private static func append(_ field: Data, to bytes: inout Data) {
        withUnsafeBytes(of: UInt32(field.count).bigEndian) { bytes.append(contentsOf: $0) }
        bytes.append(field)
    }
}
