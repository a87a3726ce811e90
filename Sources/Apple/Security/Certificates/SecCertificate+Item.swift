import CertificateParsing
import Foundation
import Query

extension SecCertificate {
    /// The certificate as `kSecValueRef`: Apple's attribute dictionary of it (§7.3) and its DER.
    var itemReference: ItemReference {
        let fields = CertificateItemFields(contents, attributes)
        return CertificateItem.reference(
            type: fields.certificateType, encoding: fields.encoding, subject: fields.subject.map { Data($0) },
            issuer: fields.issuer.map { Data($0) }, serialNumber: Data(fields.serialNumber),
            subjectKeyID: fields.subjectKeyID.map { Data($0) }, publicKeyHash: Data(fields.publicKeyHash),
            der: Data(fields.der))
    }

    /// The certificate a keychain result's reference stands for (Apple's
    /// `SecCertificateCreateFromAttributeDictionary`: made from `v_Data`); nil when its bytes are no certificate.
    convenience init?(reference: ItemReference) {
        guard reference.itemClass == .certificate, let der = reference.data else { return nil }
        self.init(der: der)
    }
}
