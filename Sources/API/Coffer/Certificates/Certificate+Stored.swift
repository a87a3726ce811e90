import Query

extension Certificate {
    /// The attributes the keychain stores with a certificate item, listed once as the password classes list
    /// theirs: what ``Keychain/add(certificate:label:accessGroup:accessibility:)`` writes and every result is read
    /// back through. The rest of a certificate item's attributes are derived from its DER.
    static let stored = StoredAttributes<Certificate>([
        ItemAttribute("label", \.label, QueryKey.label, .text),
        ItemAttribute("accessGroup", \.accessGroup, QueryKey.accessGroup, .text),
        ItemAttribute("accessibility", \.accessibility, QueryKey.accessible, .protection),
        ItemAttribute("persistentReference", \.persistentReference, QueryKey.valuePersistentRef, .persistentReference, metadata: true),
    ])

    /// The certificate alone, without the attributes of a stored item.
    var unstored: Certificate {
        var certificate = self
        certificate.label = nil
        certificate.accessGroup = nil
        certificate.accessibility = nil
        certificate.persistentReference = nil
        return certificate
    }
}
