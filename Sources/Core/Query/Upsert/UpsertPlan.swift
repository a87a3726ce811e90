import KeychainModel

/// The update an upsert falls back to when its add finds the item already there (`errSecDuplicateItem`):
/// what the Swift API's `set(_:)` and the command-line tool's `-U` run.
///
/// ```swift
/// do {
///     _ = try client.blocking.add(attributes)
/// } catch where error.status == .duplicateItem {
///     let plan = UpsertPlan(adding: attributes, itemClass: .genericPassword)
///     try client.blocking.update(plan.query, attributesToUpdate: plan.changes)
/// }
/// ```
public struct UpsertPlan: Sendable, Hashable {
    /// The class and primary key (§1.4) of the item the add collided with: the key attributes the add
    /// names, and the stored default of those it leaves out, so that an internet password added without
    /// a protocol matches the item stored without one and not one with a protocol. Without an access
    /// group it matches in all of the caller's groups.
    public let query: QueryDictionary
    /// The `attributesToUpdate` that make that item equal to what was added: the secret (`kSecValueData`)
    /// and every other attribute of the class the add names. Return and match keys are left out.
    public let changes: QueryDictionary

    /// The plan for an add of an item of `itemClass` with the dictionary `attributes`, as `SecItemAdd` takes it.
    public init(adding attributes: QueryDictionary, itemClass: ItemClass) {
        let keyCodes = AttributeCatalogue.uniquenessCodes(for: itemClass)
        var query: QueryDictionary = [.string(QueryKey.itemClass): .string(itemClass.rawValue)]
        var changes = QueryDictionary()
        for case (.string(let key), let value) in attributes.entries {
            if keyCodes.contains(key) {
                query[key] = value
            } else if key == QueryKey.valueData || AttributeCatalogue.descriptor(for: key, in: itemClass) != nil {
                changes[key] = value
            }
        }
        for code in keyCodes where query[code] == nil {
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: itemClass),
                descriptor.callerAccess == .settable, let defaultValue = descriptor.defaultValue
            else { continue }
            query[code] = defaultValue.keychainValue
        }
        self.query = query
        self.changes = changes
    }
}
