import Foundation
import Security

/// One item of a search's answer, read in place: `SecItemCopyMatching` answers an `NSArray` of `NSDictionary`s, and
/// bridging them to `[[String: Any]]` costs about as much as the keychain's own search (a dynamic cast per value), so
/// the agent reads only the entries it needs.
struct KeychainAttributes {
    private let dictionary: NSDictionary

    /// The items of a `kSecMatchLimitAll` search's `result`; nil when it is not an array of dictionaries.
    static func items(_ result: CFTypeRef?) -> [KeychainAttributes]? {
        guard let array = result as? NSArray else { return nil }
        var items: [KeychainAttributes] = []
        items.reserveCapacity(array.count)
        for element in array {
            guard let dictionary = element as? NSDictionary else { return nil }
            items.append(KeychainAttributes(dictionary: dictionary))
        }
        return items
    }

    /// The value under `key`.
    subscript(_ key: CFString) -> Any? { dictionary.object(forKey: key) }

    /// The bytes under `key`, if they are bytes.
    func data(_ key: CFString) -> Data? { self[key] as? Data }

    /// The text under `key`, if it is text.
    func string(_ key: CFString) -> String? { self[key] as? String }
}
