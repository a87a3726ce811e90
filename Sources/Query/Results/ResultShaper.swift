import Foundation
import KeychainModel

/// Shapes `SecItemCopyMatching` and `SecItemAdd` results from stored items (§2.4). Pure.
///
/// Results use the four-character attribute codes and Apple's value keys (`v_Data`, `v_PersistentRef`,
/// `class`). Password items have no `SecKeychainItemRef` on iOS, so `kSecReturnRef` yields nothing for them.
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
    /// alone for a password).
    public static func addResult(item: ItemSnapshot, returns: ReturnOptions) -> KeychainValue? {
        let flags = returns.subtracting(referenceFlag(for: item))
        if flags.contains(.attributes) {
            var dictionary = AttributeProjection.addAttributes(of: item)
            if flags.contains(.data), let data = item.data { dictionary[QueryKey.valueData] = .data(data) }
            if flags.contains(.persistentRef) {
                dictionary[QueryKey.valuePersistentRef] = .data(item.persistentRef.data)
            }
            if flags.contains(.ref) { dictionary[QueryKey.itemClass] = .string(item.itemClass.rawValue) }
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
        let flags = returns.subtracting(referenceFlag(for: item))
        let wantsRef = returns.contains(.ref)
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

    /// `.ref` for classes without a reference type (passwords), which drop the flag; empty otherwise.
    private static func referenceFlag(for item: ItemSnapshot) -> ReturnOptions {
        switch item.itemClass {
        case .genericPassword, .internetPassword: .ref
        case .certificate, .key, .identity: []
        }
    }
}
