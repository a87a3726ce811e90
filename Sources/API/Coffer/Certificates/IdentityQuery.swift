import Foundation
import KeyCrypto
import KeychainModel
import Query

/// Which identities ``Keychain/identities(matching:authenticationContext:)`` returns: every property that is set
/// must match (an empty query matches every identity the caller may read).
///
/// As in Apple's identity search (reference §7.4), ``label`` filters the certificate, ``applicationTag`` and
/// ``accessGroup`` the key; ``subjectContains`` is applied to the certificates the keychain returns.
public struct IdentityQuery: Sendable, Hashable {
    /// The certificate's `kSecAttrLabel`, exactly.
    public var label: String?
    /// Text the certificate's subject summary or a common name contains, in any case.
    public var subjectContains: String?
    /// The private key's `kSecAttrApplicationTag`.
    public var applicationTag: Data?
    /// The private key's `kSecAttrAccessGroup` (the certificate may be in any group the caller has); nil looks in
    /// every group.
    public var accessGroup: String?

    /// A query; leave a property nil not to filter on it.
    public init(label: String? = nil, subjectContains: String? = nil, applicationTag: Data? = nil, accessGroup: String? = nil) {
        self.label = label
        self.subjectContains = subjectContains
        self.applicationTag = applicationTag
        self.accessGroup = accessGroup
    }

    /// The class, the private key class (a stored public key also pairs with its certificate, §7.4) and the
    /// attributes the keychain matches.
    var entries: QueryDictionary {
        var query = QueryDictionary()
        query[QueryKey.itemClass] = .string(ItemClass.identity.rawValue)
        query[QueryKey.keyClass] = .string(String(KeyClass.privateKey.rawValue))
        query[QueryKey.label] = label.map { .string($0) }
        query[QueryKey.applicationTag] = applicationTag.map { .data($0) }
        query[QueryKey.accessGroup] = accessGroup.map { .string($0) }
        return query
    }

    /// Whether `certificate` passes ``subjectContains``.
    func admits(_ certificate: Certificate) -> Bool {
        guard let subjectContains else { return true }
        return CertificateQuery.subject(of: certificate, contains: subjectContains)
    }
}
