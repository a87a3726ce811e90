import Foundation
import KeychainModel

/// Shapes `SecItemCopyMatching` and `SecItemAdd` results from stored items (§2.4). Pure.
///
/// Results use the four-character attribute codes and Apple's value keys (`v_Data`, `v_PersistentRef`,
/// `v_Ref`, `class`). Password items have no `SecKeychainItemRef` on iOS, so `kSecReturnRef` yields nothing
/// for them; for a key it yields an ``ItemReference``, which the front end turns into its `SecKey`.
///
/// A front end that cannot build its object from a reference (a key stored without data, or with data it
/// cannot read) leaves it out as Apple's client does: nothing for a single result, the element skipped in
/// an array, no `v_Ref` in a dictionary.
public enum ResultShaper {
    /// The `SecItemCopyMatching` result for the items that matched, in order (the engine has already
    /// applied access groups, sync, tombstones and authentication).
    ///
    /// - With limit One: the first item's shape, or nil when the return flags produce nothing (no flags, or
    ///   Ref alone for a password) — Apple then succeeds and leaves `*result` untouched.
    /// - With any other limit: an array of per-item shapes (at most `limit` items), leaving out items that
    ///   produce nothing — so no flags give an empty array.
    /// - No items: nil; the call's status is -25300, which is the engine's to return.
    ///
    /// Data + PersistentRef (without Attributes) returns a dictionary with the attributes as well, the
    /// superset of the two readings of the reference (Apple's client adds Attributes internally, §2.4);
    /// code that reads `v_Data` and `v_PersistentRef` from it works either way.
    public static func copyMatchingResult(items: [ItemSnapshot], request: SearchRequest) -> KeychainValue? {
        switch request.limit {
        case .one:
            guard let first = items.first else { return nil }
            return copyMatchingShape(of: first, returns: request.returns)
        case .all, .count:
            guard !items.isEmpty else { return nil }
            let selected = request.limit.maximum.map { Array(items.prefix(max($0, 0))) } ?? items
            return .array(selected.compactMap { copyMatchingShape(of: $0, returns: request.returns) })
        }
    }

    /// The `SecItemAdd` result for the item just added, or nil when nothing is returned (no flags, or Ref
    /// alone for a password). With Ref on a key, the reference carries the attributes SecItemAdd returns.
    public static func addResult(item: ItemSnapshot, returns: ReturnOptions) -> KeychainValue? {
        if returns.contains(.ref), ItemReference.exists(for: item.itemClass) {
            return referenceResult(of: item, attributes: AttributeProjection.addAttributes(of: item), returns: returns)
        }
        let flags = returns.subtracting(.ref)
        if flags.contains(.attributes) {
            var dictionary = AttributeProjection.addAttributes(of: item)
            if flags.contains(.data), let data = item.data { dictionary[QueryKey.valueData] = .data(data) }
            if flags.contains(.persistentRef) {
                dictionary[QueryKey.valuePersistentRef] = .data(item.persistentRef.data)
            }
            return .dictionary(dictionary)
        }
        if flags == [.data, .persistentRef] {
            return .dictionary([
                QueryKey.valueData: .data(item.data ?? Data()),
                QueryKey.valuePersistentRef: .data(item.persistentRef.data),
            ])
        }
        return singleValue(of: item, flags: flags)
    }

    /// One item's CopyMatching shape (§2.4 table), or nil when it contributes nothing.
    static func copyMatchingShape(of item: ItemSnapshot, returns: ReturnOptions) -> KeychainValue? {
        let wantsRef = returns.contains(.ref)
        if wantsRef, ItemReference.exists(for: item.itemClass) {
            return referenceResult(of: item, attributes: AttributeProjection.copyMatchingAttributes(of: item), returns: returns)
        }
        let flags = returns.subtracting(.ref)
        let needsDictionary = flags.contains(.attributes) || flags.count > 1 || (wantsRef && !flags.isEmpty)
        guard needsDictionary else { return singleValue(of: item, flags: flags) }
        var dictionary = AttributeProjection.copyMatchingAttributes(of: item)
        if wantsRef { dictionary[QueryKey.itemClass] = .string(item.itemClass.rawValue) }
        if flags.contains(.data), let data = item.data { dictionary[QueryKey.valueData] = .data(data) }
        if flags.contains(.persistentRef) {
            dictionary[QueryKey.valuePersistentRef] = .data(item.persistentRef.data)
        }
        return .dictionary(dictionary)
    }

    /// The result of a single flag: the data (empty when the item has none), the persistent reference, or nothing.
    private static func singleValue(of item: ItemSnapshot, flags: ReturnOptions) -> KeychainValue? {
        switch flags {
        case .data: .data(item.data ?? Data())
        case .persistentRef: .data(item.persistentRef.data)
        default: nil
        }
    }

    /// Ref on a class with a reference type: the reference alone, or, with other flags, a dictionary of the
    /// attributes, `class` and `v_Ref`, plus `v_Data` (when asked for and present) and `v_PersistentRef`
    /// (when asked for). Apple's daemon answers a Ref with the attributes, `class` and `v_Data`; its client
    /// builds the object from them and drops `v_Data` unless it was asked for.
    private static func referenceResult(
        of item: ItemSnapshot, attributes: [String: KeychainValue], returns: ReturnOptions
    ) -> KeychainValue {
        var attributes = attributes
        attributes[QueryKey.itemClass] = .string(item.itemClass.rawValue)
        let reference = ItemReference(itemClass: item.itemClass, attributes: attributes, data: item.data)
        guard returns != .ref else { return .itemReference(reference) }
        var dictionary = attributes
        dictionary[QueryKey.valueRef] = .itemReference(reference)
        if returns.contains(.data), let data = item.data { dictionary[QueryKey.valueData] = .data(data) }
        if returns.contains(.persistentRef) { dictionary[QueryKey.valuePersistentRef] = .data(item.persistentRef.data) }
        return .dictionary(dictionary)
    }
}
