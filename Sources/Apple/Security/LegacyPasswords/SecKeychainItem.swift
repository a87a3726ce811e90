import Foundation
import KeychainModel
import Query

/// `SecKeychainItemRef`: one item of the keychain, as the legacy password calls hand it out
/// (``SecKeychainAddGenericPassword(_:_:_:_:_:_:_:_:)`` and the others).
///
/// It identifies the item by its class and persistent reference (the `kSecValuePersistentRef` that
/// `SecItemCopyMatching` returns for it), which stays the same when the item's data or attributes change.
/// Two references to the same item are equal (`==`) and hash alike, as `CFEqual` makes them on macOS.
/// It holds no secret.
public final class SecKeychainItem: Hashable, Sendable, CustomStringConvertible {
    /// The item's class (`genp` or `inet`).
    let itemClass: ItemClass
    /// The item's persistent reference: the four class characters and its 16-byte identity.
    let persistentReference: Data

    init(itemClass: ItemClass, persistentReference: Data) {
        self.itemClass = itemClass
        self.persistentReference = persistentReference
    }

    /// Whether both refer to the same item.
    public static func == (lhs: SecKeychainItem, rhs: SecKeychainItem) -> Bool {
        lhs.itemClass == rhs.itemClass && lhs.persistentReference == rhs.persistentReference
    }

    /// Hashes the item's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(itemClass)
        hasher.combine(persistentReference)
    }

    /// `<SecKeychainItem genp>`: the class only.
    public var description: String { "<SecKeychainItem \(itemClass.rawValue)>" }

    /// The search that finds exactly this item: its class and persistent reference.
    var search: QueryDictionary {
        [.string(QueryKey.itemClass): .string(itemClass.rawValue), .string(QueryKey.valuePersistentRef): .data(persistentReference)]
    }
}

/// The legacy spelling of ``SecKeychainItem``.
public typealias SecKeychainItemRef = SecKeychainItem

/// The type identifier of ``SecKeychainItem``, for comparison with ``CFGetTypeID(_:)``.
public func SecKeychainItemGetTypeID() -> CFTypeID { TypeIdentifier.keychainItem.rawValue }

extension SecKeychainItem {
    /// The item a persistent reference names, its class read from the reference's first four bytes; nil
    /// when they name no class.
    convenience init?(persistentReference: Data) {
        guard let itemClass = ItemClass(rawValue: String(decoding: persistentReference.prefix(4), as: UTF8.self)) else {
            return nil
        }
        self.init(itemClass: itemClass, persistentReference: persistentReference)
    }
}
