import KeychainModel
import Query

/// The update that `set(_:)` falls back to when an add finds the item already there.
enum UpsertPlan {
    /// A query selecting exactly the item `item` collided with, and the changes that make it equal to `item`.
    ///
    /// The query holds the class's primary-key attributes (§1.4) that `item` sets, and the stored default
    /// of those it leaves out (so an internet password without a protocol does not match one with a
    /// protocol). Without an access group it matches in all of the caller's groups. The changes are every
    /// other attribute `item` sets, and its secret.
    static func parts(of item: some KeychainItem) -> (query: QueryDictionary, changes: QueryDictionary) {
        let itemClass = type(of: item).itemClass
        let keyCodes = Set(AttributeCatalogue.uniquenessCodes(for: itemClass))
        let attributes = item.attributes
        var query = attributes.filter { keyCodes.contains($0) }
        query[QueryKey.itemClass] = .string(itemClass.rawValue)
        for code in keyCodes where query[code] == nil {
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: itemClass),
                descriptor.callerAccess == .settable, let defaultValue = descriptor.defaultValue
            else { continue }
            query[code] = defaultValue.keychainValue
        }
        var changes = attributes.filter { !keyCodes.contains($0) }
        changes.set(QueryKey.valueData, item.value)
        return (query.dictionary, changes.dictionary)
    }
}
