import Foundation
import ItemStore
import KeychainModel
import Query

/// What an identity search found: the identities, and rows of either class that turned out undecryptable.
struct IdentityOutcome {
    var matches: [ItemSnapshot] = []
    var undecryptable: [StoredItem] = []
}

extension KeychainEngine {
    /// The identities a `kSecClassIdentity` search matches (§7.4): each certificate the certificate part
    /// selects, paired with each private key whose application label is the certificate's public key
    /// hash and that the key part admits, in certificate order, at most `limit`.
    ///
    /// An identity's attributes are the key's overlaid with the certificate's (``IdentitySearch/identityAttributes(certificate:certificateData:key:)``),
    /// its data the key's, and its persistent reference `idnt` with the certificate's row. The key is read
    /// through `authorization` as any key is (its access control applies); the certificate's DER is always
    /// loaded, since the identity's reference is made from it.
    func openIdentities(
        _ search: SearchRequest, caller: CallerContext, limit: Int?, loadData: Bool, reader: some ItemReading,
        authorization: ItemAuthorization?
    ) throws -> IdentityOutcome {
        let parts = IdentitySearch(search)
        let certificates = try openMatches(parts.certificates, caller: caller, limit: nil, loadData: true, reader: reader)
        var outcome = IdentityOutcome(undecryptable: certificates.undecryptable)
        for certificate in certificates.matches {
            if let limit, outcome.matches.count >= limit { break }
            guard case .data(let publicKeyHash)? = certificate.attributes["pkhh"] else { continue }
            let keys = try openMatches(
                parts.keys(pairingWith: publicKeyHash), caller: caller, limit: limit.map { $0 - outcome.matches.count },
                loadData: loadData, reader: reader, authorization: authorization)
            outcome.undecryptable += keys.undecryptable
            let reference = persistentReference(certificate.stored, as: .identity)
            for key in keys.matches {
                let attributes = IdentitySearch.identityAttributes(
                    certificate: certificate.attributes, certificateData: certificate.data, key: key.attributes)
                outcome.matches.append(
                    ItemSnapshot(
                        itemClass: .identity, attributes: attributes, data: key.data,
                        persistentRef: reference))
            }
        }
        return outcome
    }
}
