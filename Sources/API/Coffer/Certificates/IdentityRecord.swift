import Foundation
import KeychainModel
import Query

/// The ``Identity`` a `kSecClassIdentity` result stands for: Apple's identity reference holds the key's
/// attributes overlaid with the certificate's, the certificate's DER as `certdata`, and the key's bytes (reference
/// §7.4), so the certificate is made from `certdata` and the key from the rest, as Apple's
/// `SecItemCreateFromAttributeDictionary` does.
enum IdentityRecord {
    /// The identity of one result dictionary (`v_Ref`, the attributes, `v_PersistentRef`); nil when it holds no
    /// identity reference, or its certificate or key cannot be read.
    static func identity(reading result: KeychainValue) -> Identity? {
        guard case .dictionary(let values) = result, case .itemReference(let reference)? = values[QueryKey.valueRef],
            reference.itemClass == .identity, case .data(let der)? = reference.attributes[QueryKey.identityCertificateData],
            let parsed = try? Certificate(derRepresentation: der)
        else { return nil }
        // The identity's persistent reference is `idnt` with the certificate's row: the certificate's is `cert` with it.
        let identityReference = AttributeReader(values: values).persistentReference(QueryKey.valuePersistentRef)
        let certificateReference = identityReference?.uuid.map { PersistentReference(itemClass: .certificate, uuid: $0) }
        let certificate = CertificateItemRecord.certificate(parsed, withStored: values, persistentReference: certificateReference)
        var keyAttributes = reference.attributes
        keyAttributes[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        keyAttributes[QueryKey.identityCertificateData] = nil
        let keyReference = ItemReference(itemClass: .key, attributes: keyAttributes, data: reference.data)
        guard let key = KeyItemRecord.key(reading: .itemReference(keyReference)) else { return nil }
        return Identity(pairing: certificate, with: key)
    }
}
