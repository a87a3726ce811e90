import CertificateParsing
import Foundation
import KeychainKeys
import KeychainModel
import KeychainOperations
import Query

extension SecIdentity {
    /// The identity as a value of a query: its key's reference, of class identity, with the certificate's DER
    /// as `certdata` — what Apple's daemon answers for an identity.
    var itemReference: ItemReference {
        let key = privateKey.handle.itemReference
        var attributes = key.attributes
        attributes[QueryKey.itemClass] = .string(ItemClass.identity.rawValue)
        attributes[QueryKey.identityCertificateData] = .data(Data(certificate.contents.der))
        return ItemReference(itemClass: .identity, attributes: attributes, data: key.data)
    }

    /// The identity a keychain result's reference stands for (Apple's `SecItemCreateFromAttributeDictionary`
    /// for identities): the certificate made from `certdata`, the key from the rest; nil when either cannot
    /// be made.
    convenience init?(reference: ItemReference, authentication: TokenKeyAuthentication) {
        guard reference.itemClass == .identity,
            case .data(let der)? = reference.attributes[QueryKey.identityCertificateData],
            let certificate = SecCertificate(der: der)
        else { return nil }
        var keyAttributes = reference.attributes
        keyAttributes[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        let keyReference = ItemReference(itemClass: .key, attributes: keyAttributes, data: reference.data)
        guard let key = KeyReferences.key(from: keyReference, authentication: authentication) else { return nil }
        self.init(certificate: certificate, privateKey: key)
    }
}

extension SecCertificate {
    /// The certificate of `der`, or nil when the bytes are no certificate.
    convenience init?(der: Data) {
        self.init(der: [UInt8](der))
    }
}
