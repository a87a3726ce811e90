import CertificateParsing
import Foundation
import KeychainModel
import Query

/// A ``Certificate`` as a `kSecClassCertificate` item: the `SecItemAdd` dictionary Apple's client builds for a
/// certificate given as `kSecValueRef` (through Query's ``CertificateItem``, the same rules the `Security` module's
/// `SecCertificate` follows; reference §7.3), and the certificate a result describes.
enum CertificateItemRecord {
    /// The certificate as the value of `kSecValueRef`: Apple's attribute dictionary of it and its DER.
    static func reference(for certificate: Certificate) -> ItemReference {
        let fields = CertificateItemFields(certificate.contents, certificate.attributes)
        return CertificateItem.reference(
            type: fields.certificateType, encoding: fields.encoding, subject: fields.subject.map { Data($0) },
            issuer: fields.issuer.map { Data($0) }, serialNumber: Data(fields.serialNumber),
            subjectKeyID: fields.subjectKeyID.map { Data($0) }, publicKeyHash: Data(fields.publicKeyHash), der: Data(fields.der))
    }

    /// The `SecItemAdd` dictionary that stores `certificate` with the caller's `attributes` (label, group,
    /// protection; the subject summary is the label when none is given), asking for the stored attributes and the
    /// persistent reference back.
    static func addDictionary(for certificate: Certificate, attributes: QueryDictionary) -> QueryDictionary {
        var query = attributes
        query[QueryKey.itemClass] = .string(ItemClass.certificate.rawValue)
        query[QueryKey.valueRef] = .itemReference(reference(for: certificate))
        query = CertificateItem.expanded(query, label: certificate.subjectSummary, forSearch: false)
        query[QueryKey.returnAttributes] = .bool(true)
        query[QueryKey.returnPersistentRef] = .bool(true)
        return query
    }

    /// The query that names `certificate`'s item: its issuer and serial number (its primary key with the group),
    /// else its public key hash and serial number, and its group when known.
    static func selection(of certificate: Certificate) -> QueryDictionary {
        var query = QueryDictionary()
        query[QueryKey.itemClass] = .string(ItemClass.certificate.rawValue)
        query[CertificateItem.serialNumber] = .data(certificate.serialNumber)
        if let issuer = certificate.attributes.normalizedIssuer {
            query[CertificateItem.issuer] = .data(Data(issuer))
        } else {
            query[CertificateItem.publicKeyHash] = .data(certificate.publicKeyHash)
        }
        query[QueryKey.accessGroup] = certificate.accessGroup.map { .string($0) }
        return query
    }

    /// `certificate` with the stored attributes of a result dictionary: label, group, protection, persistent
    /// reference (`persistentReference` when given instead of the dictionary's).
    static func certificate(
        _ certificate: Certificate, withStored values: [String: KeychainValue], persistentReference: PersistentReference? = nil
    ) -> Certificate {
        var stored = Certificate.stored.reading(certificate.unstored, from: AttributeReader(values: values))
        if let persistentReference { stored.persistentReference = persistentReference }
        return stored
    }

    /// The certificate a result dictionary (attributes, `v_Data`, `v_PersistentRef`) describes; nil when its data
    /// is no certificate.
    static func certificate(reading result: KeychainValue) -> Certificate? {
        guard case .dictionary(let values) = result, case .data(let der)? = values[QueryKey.valueData],
            let parsed = try? Certificate(derRepresentation: der)
        else { return nil }
        return certificate(parsed, withStored: values)
    }
}
