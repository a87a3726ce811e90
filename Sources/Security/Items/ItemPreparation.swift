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

    /// The query of `SecItemCopyMatching`, `SecItemUpdate` or `SecItemDelete`.
    static func searched(_ query: CFDictionary) -> QueryDictionary {
        let expanded = KeyReferences.expanded(ValueBridge.query(query), forSearch: true)
        return CertificateReferences.prepared(expanded, forSearch: true, infersLabel: false)
    }

    /// `SecItemUpdate`'s attributes to update.
    static func changes(_ attributes: CFDictionary) -> QueryDictionary {
        CertificateReferences.prepared(ValueBridge.query(attributes), forSearch: false, infersLabel: false)
    }
}
