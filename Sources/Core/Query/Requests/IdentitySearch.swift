import Foundation
import KeychainModel

/// A `kSecClassIdentity` search as Apple's daemon runs it (§7.4): an identity is a private key whose
/// application label (`klbl`) equals a certificate's public key hash (`pkhh`), so the search is one over
/// certificates and, for each certificate found, one over the keys that pair with it.
///
/// Apple's join exposes the certificate's `labl`, `issr`, `slnr`, `skid` and `tkid` and the key's every
/// column, so a filter on one of those five names the certificate and any other filter the key — `agrp`,
/// `sync`, `pdmn` and `tomb` included, while the certificate must only be in one of the caller's groups.
/// A filter on an attribute only certificates have (`subj`, `pkhh`, `ctyp`, `cenc`), which Apple's join
/// does not expose and answers with an SQL error, filters the certificate here.
public struct IdentitySearch: Sendable, Hashable {
    /// The certificates to pair: the certificate filters, any of the caller's groups, live items of either
    /// synchronizable state, every match.
    public let certificates: SearchRequest
    /// The keys to pair with one certificate: ``keys(pairingWith:)`` adds the certificate's public key hash.
    private let keys: SearchRequest

    /// The attributes whose filters name the certificate in Apple's join.
    static let certificateColumns: Set<String> = [QueryKey.label, "issr", "slnr", "skid", QueryKey.tokenID]

    /// The attributes keys have.
    private static let keyCodes = Set(ClassSchema.key.map(\.code))

    /// Splits `search` (of class identity) into its certificate and key parts.
    public init(_ search: SearchRequest) {
        let keyCodes = Self.keyCodes
        var certificateFilters = AttributeSet()
        var keyFilters = AttributeSet()
        for (code, value) in search.filters {
            if Self.certificateColumns.contains(code) || !keyCodes.contains(code) {
                certificateFilters[code] = value
            } else {
                keyFilters[code] = value
            }
        }
        keyFilters["priv"] = .number(1)
        certificates = SearchRequest(
            itemClass: .certificate, filters: certificateFilters, accessGroup: nil, synchronizable: .any,
            persistentRef: search.persistentRef.map(Self.certificateReference), hostOrSubdomainOf: nil, limit: .all,
            returns: [], authentication: search.authentication, useTombstones: nil)
        keys = SearchRequest(
            itemClass: .key, filters: keyFilters, accessGroup: search.accessGroup, synchronizable: search.synchronizable,
            persistentRef: nil, hostOrSubdomainOf: nil, limit: .all, returns: [], authentication: search.authentication,
            useTombstones: nil)
    }

    /// The keys that pair with a certificate whose public key hash is `publicKeyHash`.
    public func keys(pairingWith publicKeyHash: Data) -> SearchRequest {
        var search = keys
        search.filters[QueryKey.applicationLabel] = .data(publicKeyHash)
        return search
    }

    /// An identity's persistent reference (`idnt` and its certificate's row) as the certificate's.
    private static func certificateReference(_ reference: PersistentReference) -> PersistentReference {
        switch reference.identity {
        case .uuid(let uuid): PersistentReference(itemClass: .certificate, uuid: uuid)
        case .legacyRowID(let row): PersistentReference(itemClass: .certificate, legacyRowID: row)
        }
    }
}

extension IdentitySearch {
    /// The attributes of an identity made of `certificate` and `key`: the key's, overlaid with the
    /// certificate's (its `tkid` excepted, kept as `certtkid`), and the certificate's DER as `certdata`
    /// (`kSecAttrIdentityCertificateData`, from which a `SecIdentity` is made).
    public static func identityAttributes(
        certificate: AttributeSet, certificateData: Data?, key: AttributeSet
    ) -> AttributeSet {
        var merged = key
        for (code, value) in certificate {
            if code == QueryKey.tokenID {
                merged[QueryKey.identityCertificateTokenID] = value
            } else {
                merged[code] = value
            }
        }
        if let certificateData { merged[QueryKey.identityCertificateData] = .data(certificateData) }
        return merged
    }
}
