import Foundation

/// The macOS-only objects a call's dictionary holds under the keys where macOS code puts them:
/// a ``SecKeychainItem`` as `kSecValueRef` or in `kSecMatchItemList`, ``SecKeychain``s as `kSecUseKeychain`
/// or in `kSecMatchSearchList`, a ``SecAccess`` as `kSecAttrAccess`.
///
/// The engine's ``QueryDictionary`` cannot carry these objects, so they are read from the caller's
/// dictionary itself, in one pass, and only when the bridged dictionary shows one may be there.
struct MacOSObjects {
    /// The value under each key of ``keys`` that the caller's dictionary has.
    private var values: [String: AnyObject] = [:]

    /// The keys whose values are read.
    static let keys: Set<String> = [
        "v_Ref", "m_ItemList", MacOSKey.useKeychain, "m_SearchList", MacOSKey.access,
    ]

    init(_ dictionary: NSDictionary) {
        dictionary.enumerateKeysAndObjects { key, value, _ in
            guard let name = key as? String, Self.keys.contains(name) else { return }
            values[name] = value as AnyObject
        }
    }

    /// The ``SecKeychainItem`` passed as `kSecValueRef`, if that is what was passed.
    var valueReference: SecKeychainItem? { values["v_Ref"] as? SecKeychainItem }

    /// The items of `kSecMatchItemList` when it is a non-empty array of ``SecKeychainItem``s only.
    var itemList: [SecKeychainItem]? {
        guard let array = values["m_ItemList"] as? NSArray, array.count > 0 else { return nil }
        let items = array.compactMap { $0 as? SecKeychainItem }
        return items.count == array.count ? items : nil
    }

    /// Whether `kSecMatchSearchList` is a ``SecKeychain`` or holds some, which only macOS code has.
    var searchesKeychains: Bool {
        if values["m_SearchList"] is SecKeychain { return true }
        guard let array = values["m_SearchList"] as? NSArray else { return false }
        return array.contains { $0 is SecKeychain }
    }

    /// The value under `key` is of the type macOS's file keychain requires there, or absent or null
    /// (Apple's `_ValidateDictionaryEntry`): nil when it is, else the type that was expected.
    func wrongType(at key: String) -> String? {
        guard let value = values[key], !(value is NSNull) else { return nil }
        switch key {
        case MacOSKey.useKeychain: return value is SecKeychain ? nil : "a SecKeychain"
        case MacOSKey.access: return value is SecAccess ? nil : "a SecAccess"
        case "m_SearchList", "m_ItemList": return value is NSArray ? nil : "a CFArray"
        default: return nil
        }
    }
}
