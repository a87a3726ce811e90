import Foundation
import KeychainModel

/// How a certificate becomes a `kSecClassCertificate` item and comes back, as Apple's client does it
/// (`SecCertificateCopyAttributeDictionary`, `SecItemAttributesPrepare`, `infer_cert_label` in
/// `OSX/sec/Security/SecItem.c`; reference §1.5, §7.3): the one place every front end that stores certificates
/// takes these rules from. Reading the DER is the `CertificateParsing` target's; this is only the rules.
public enum CertificateItem {
    /// `kSecAttrCertificateType`.
    public static let certificateType = "ctyp"
    /// `kSecAttrCertificateEncoding`.
    public static let certificateEncoding = "cenc"
    /// `kSecAttrSubject`.
    public static let subject = "subj"
    /// `kSecAttrIssuer`.
    public static let issuer = "issr"
    /// `kSecAttrSerialNumber`.
    public static let serialNumber = "slnr"
    /// `kSecAttrSubjectKeyID`.
    public static let subjectKeyID = "skid"
    /// `kSecAttrPublicKeyHash`.
    public static let publicKeyHash = "pkhh"

    /// The certificate as the value of `kSecValueRef`: Apple's attribute dictionary of a certificate (`class`,
    /// `ctyp`, `cenc`, `subj` when the subject normalizes, `issr`, `slnr`, `skid` when the certificate has one,
    /// `pkhh`) and its DER as the reference's data (`v_Data`). Apple makes no dictionary when the issuer does
    /// not normalize; the reference then has no `issr` and no `slnr`, and the item gets their defaults.
    public static func reference(
        type: Int, encoding: Int, subject: Data?, issuer: Data?, serialNumber: Data, subjectKeyID: Data?,
        publicKeyHash: Data, der: Data
    ) -> ItemReference {
        var attributes: [String: KeychainValue] = [
            QueryKey.itemClass: .string(ItemClass.certificate.rawValue),
            certificateType: .number(Int64(type)),
            certificateEncoding: .number(Int64(encoding)),
            Self.publicKeyHash: .data(publicKeyHash),
        ]
        if let subject { attributes[Self.subject] = .data(subject) }
        if let issuer {
            attributes[Self.issuer] = .data(issuer)
            attributes[Self.serialNumber] = .data(serialNumber)
        }
        if let subjectKeyID { attributes[Self.subjectKeyID] = .data(subjectKeyID) }
        return ItemReference(itemClass: .certificate, attributes: attributes, data: der)
    }

    /// `query` with a certificate under `kSecValueRef` replaced by its attributes and `v_Data` (Apple's
    /// `SecItemAttributesPrepare`): the caller's own entries win. On an add, `label` (the certificate's subject
    /// summary, Apple's `infer_cert_label`) becomes `kSecAttrLabel` when the caller gave none; a search, update
    /// or delete matches on every attribute of the dictionary, `v_Data` included, as Apple's does.
    public static func expanded(_ query: QueryDictionary, label: String?, forSearch: Bool) -> QueryDictionary {
        guard case .itemReference(let reference)? = query[QueryKey.valueRef], reference.itemClass == .certificate else { return query }
        var expanded = query
        expanded[QueryKey.valueRef] = nil
        var attributes = reference.attributes
        if let data = reference.data { attributes[QueryKey.valueData] = .data(data) }
        if !forSearch, let label { attributes[QueryKey.label] = .string(label) }
        for (code, value) in attributes where expanded[code] == nil {
            expanded[code] = value
        }
        return expanded
    }

    /// `query` with a `kSecAttrIssuer` given as data replaced by `normalize(data)` when that gives a value (Apple's
    /// client normalizes a full DER `Name`, outer `SEQUENCE` included, to the stored form; other data stays).
    public static func normalizingIssuer(_ query: QueryDictionary, _ normalize: (Data) -> Data?) -> QueryDictionary {
        guard case .data(let given)? = query[issuer], let normalized = normalize(given) else { return query }
        var changed = query
        changed[issuer] = .data(normalized)
        return changed
    }
}
