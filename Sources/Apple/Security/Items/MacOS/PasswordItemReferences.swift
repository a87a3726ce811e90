import Foundation
import KeychainModel
import Query

/// `kSecReturnRef` on generic and internet passwords, answered as macOS answers it: with a
/// ``SecKeychainItem`` that code passes back as `kSecValueRef`, in `kSecMatchItemList` or to
/// ``SecKeychainItemDelete(_:)`` (iOS answers with nothing).
///
/// The keychain is asked for the items' persistent references in place of references, and each result
/// gets the item made from its reference: alone when the reference was all the caller asked for, else
/// under `kSecValueRef` in the result's dictionary (with `kSecValuePersistentRef` only if asked for too).
struct PasswordItemReferences {
    /// The `kSecReturn…` keys the caller set to true.
    let requested: Set<String>

    /// Nil unless `query` asks with a true boolean for references of password items.
    init?(_ query: QueryDictionary) {
        guard query[QueryKey.returnRef] == .bool(true), Self.isPasswordClass(query) else { return nil }
        requested = Set(ReturnKeys.all.filter { query[$0] == .bool(true) })
    }

    /// `query` asking for persistent references instead of references.
    func keychainQuery(_ query: QueryDictionary) -> QueryDictionary {
        var asked = query
        asked[QueryKey.returnRef] = nil
        asked[QueryKey.returnPersistentRef] = .bool(true)
        return asked
    }

    /// The caller's result, made from the keychain's answer to ``keychainQuery(_:)``.
    func object(from value: KeychainValue) -> AnyObject {
        if case .array(let elements) = value { return NSArray(array: elements.map(element)) }
        return element(value)
    }

    /// Whether the keychain answers each item with its bare persistent reference.
    private var keychainAnswersReferenceOnly: Bool {
        requested.subtracting([QueryKey.returnRef, QueryKey.returnPersistentRef]).isEmpty
    }

    private func element(_ value: KeychainValue) -> AnyObject {
        var entries: [String: KeychainValue] = [:]
        let reference: Data?
        switch value {
        case .data(let bytes) where keychainAnswersReferenceOnly: reference = bytes
        case .dictionary(let found):
            entries = found
            reference = found[QueryKey.valuePersistentRef]?.dataValue
        default: return ValueBridge.object(value)
        }
        guard let reference, let item = SecKeychainItem(persistentReference: reference) else {
            return ValueBridge.object(value)
        }
        if requested == [QueryKey.returnRef] { return item }
        entries[QueryKey.valuePersistentRef] = requested.contains(QueryKey.returnPersistentRef) ? .data(reference) : nil
        let result = NSMutableDictionary(dictionary: entries.mapValues { ValueBridge.object($0) })
        result.setObject(item, forKey: NSString(string: QueryKey.valueRef))
        return result
    }

    /// Whether the query's class, or the class its persistent reference names, is a password class.
    private static func isPasswordClass(_ query: QueryDictionary) -> Bool {
        let code =
            query[QueryKey.itemClass]?.stringValue
            ?? query[QueryKey.valuePersistentRef]?.dataValue.map { String(decoding: $0.prefix(4), as: UTF8.self) }
        return code == ItemClass.genericPassword.rawValue || code == ItemClass.internetPassword.rawValue
    }
}

extension Optional where Wrapped == PasswordItemReferences {
    /// How a call's result reaches the caller: with ``SecKeychainItem``s when references of passwords were
    /// asked for, else as plain Foundation objects (keys as ``SecKey``s, which take their token settings
    /// from `query`). `specialKeys`, when given, says whether `query` holds any of those settings.
    func presenter(for query: QueryDictionary, specialKeys: SpecialKeys = .all) -> (KeychainValue) -> AnyObject? {
        guard let references = self else {
            // Without them, a key gets the default settings, as `authentication(of:)` would find.
            guard specialKeys.contains(.keyAuthentication) else { return { ValueBridge.result($0) } }
            let authentication = KeyReferences.authentication(of: query)
            return { ValueBridge.result($0, keys: authentication) }
        }
        return references.object(from:)
    }
}
