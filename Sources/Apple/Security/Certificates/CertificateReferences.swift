import CertificateParsing
import Foundation
import Query

/// `kSecValueRef` holding a ``SecCertificate``, and `kSecAttrIssuer` given as a full DER `Name`, as Apple's
/// client prepares them before the keychain sees a dictionary (`infer_cert_label`, `SecItemAttributesPrepare`).
enum CertificateReferences {
    /// `query` as Apple's client sends it: a certificate under `kSecValueRef` replaced by its attributes and
    /// `v_Data` (``CertificateItem/expanded(_:label:forSearch:)``; with its subject summary as the label when
    /// `infersLabel` and the caller gave none), and a `kSecAttrIssuer` that is a DER `Name` normalized.
    static func prepared(_ query: QueryDictionary, forSearch: Bool, infersLabel: Bool) -> QueryDictionary {
        var prepared = query
        if case .itemReference(let reference)? = query[QueryKey.valueRef], reference.itemClass == .certificate {
            let label = infersLabel ? SecCertificate(reference: reference)?.attributes.subjectSummary : nil
            prepared = CertificateItem.expanded(prepared, label: label, forSearch: forSearch)
        }
        return CertificateItem.normalizingIssuer(prepared, normalizedIssuer)
    }

    /// Apple's `SecItemAttributesPrepare` on `kSecAttrIssuer`: data that is a DER `SEQUENCE` becomes its
    /// normalized content (``X501Name/normalizedContent(of:)``); nil (the value stays) for anything else.
    static func normalizedIssuer(_ given: Data) -> Data? {
        let bytes = [UInt8](given)
        guard bytes.first == 0x30, let normalized = X501Name.normalizedContent(of: bytes) else { return nil }
        return Data(normalized)
    }
}
