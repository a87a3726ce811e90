import KeychainModel

/// Which stored attributes a result dictionary shows (§2.4).
enum AttributeProjection {
    /// Attributes never shown: the sync bookkeeping identifiers and the App Clip marker.
    private static let hidden: Set<String> = [QueryKey.uuid, QueryKey.persistentReference, QueryKey.appClipItem]

    /// CopyMatching: every stored attribute except `UUID`, `persistref`, `clip` and secret fields, with an
    /// `accc` derived from `pdmn` when the item has none (Apple keeps an access control for every item).
    static func copyMatchingAttributes(of item: ItemSnapshot) -> [String: KeychainValue] {
        var dictionary: [String: KeychainValue] = [:]
        for (code, value) in item.attributes where isShown(code, in: item.itemClass) {
            dictionary[code] = value.keychainValue
        }
        if dictionary[QueryKey.accessControl] == nil,
            let protection = item.attributes[QueryKey.accessible]?.stringValue.flatMap(ProtectionClass.init(rawValue:))
        {
            dictionary[QueryKey.accessControl] = .accessControl(AccessControl(protection: protection))
        }
        return dictionary
    }

    /// SecItemAdd: only attributes with Apple's A flag (so not `tomb` or `musr`); `accc` only when stored.
    static func addAttributes(of item: ItemSnapshot) -> [String: KeychainValue] {
        var dictionary: [String: KeychainValue] = [:]
        for (code, value) in item.attributes where isShown(code, in: item.itemClass) {
            guard AttributeCatalogue.descriptor(for: code, in: item.itemClass)?.flags.contains(.returned) == true
            else { continue }
            dictionary[code] = value.keychainValue
        }
        return dictionary
    }

    private static func isShown(_ code: String, in itemClass: ItemClass) -> Bool {
        if hidden.contains(code) { return false }
        return AttributeCatalogue.descriptor(for: code, in: itemClass)?.flags.contains(.secret) != true
    }
}
