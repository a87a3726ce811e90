import KeychainModel
import Query

/// Apple's names of the item classes and of their primary keys, from Query's schema.
enum ClassNames {
    static func constant(_ itemClass: ItemClass) -> String {
        switch itemClass {
        case .genericPassword: "kSecClassGenericPassword"
        case .internetPassword: "kSecClassInternetPassword"
        case .certificate: "kSecClassCertificate"
        case .key: "kSecClassKey"
        case .identity: "kSecClassIdentity"
        }
    }

    /// The attributes of the class a caller sets that make an item distinct (its primary key, less access group,
    /// synchronizable and the bookkeeping the keychain fills in).
    static func identifyingAttributes(of itemClass: ItemClass) -> [AttributeDescriptor] {
        let filledIn: Set = [QueryKey.accessGroup, QueryKey.synchronizable, "vwht", "tkid", "musr", "ggrp"]
        return AttributeCatalogue.descriptors(for: itemClass).filter { $0.flags.contains(.primaryKey) && !filledIn.contains($0.code) }
    }
}
