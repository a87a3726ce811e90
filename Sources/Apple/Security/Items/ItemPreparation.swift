import Foundation
import Query

/// What Apple's client does to a dictionary before the keychain sees it (`SecItemAttributesPrepare`, and on an
/// add `infer_cert_label`): a key or certificate under `kSecValueRef` becomes its attributes, and a
/// `kSecAttrIssuer` given as a DER `Name` its normalized content.
enum ItemPreparation {
    /// `SecItemAdd`'s attributes.
    static func added(_ attributes: CFDictionary) -> QueryDictionary {
        let query = KeyReferences.expanded(ValueBridge.query(attributes), forSearch: false)
        return CertificateReferences.prepared(query, forSearch: false, infersLabel: true)
    }

    /// A search's dictionary as prepared, with the special keys the caller's dictionary held.
    struct Searched {
        /// The dictionary the keychain is asked with (before ``MacOSShim``).
        var query: QueryDictionary
        /// Which passes still have something to do (``SpecialKeys``).
        var specialKeys: SpecialKeys
    }

    /// The query of `SecItemCopyMatching`, `SecItemUpdate` or `SecItemDelete`.
    static func searched(_ query: CFDictionary) -> Searched {
        let bridged = ValueBridge.query(query)
        let specialKeys = SpecialKeys(of: bridged)
        // Without a reference or an issuer, both passes hand the dictionary back as it is.
        guard !specialKeys.isDisjoint(with: [.valueRef, .issuer]) else { return Searched(query: bridged, specialKeys: specialKeys) }
        let expanded = KeyReferences.expanded(bridged, forSearch: true)
        return Searched(query: CertificateReferences.prepared(expanded, forSearch: true, infersLabel: false), specialKeys: specialKeys)
    }

    /// `SecItemUpdate`'s attributes to update.
    static func changes(_ attributes: CFDictionary) -> QueryDictionary {
        CertificateReferences.prepared(ValueBridge.query(attributes), forSearch: false, infersLabel: false)
    }
}
