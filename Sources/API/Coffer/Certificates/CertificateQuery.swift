import Foundation
import KeychainModel
import Query

/// Which stored certificates ``Keychain/certificates(matching:)`` returns: every property that is set must match
/// (an empty query matches every certificate the caller may read).
///
/// ``label``, ``publicKeyHash``, ``serialNumber`` and ``accessGroup`` are attributes the keychain matches exactly.
/// The keychain has no "subject contains" match (Apple's `kSecMatchSubjectContains` is macOS's file keychains'), so
/// ``subjectContains`` is applied to the certificates the keychain returns.
public struct CertificateQuery: Sendable, Hashable {
    /// `kSecAttrLabel`, exactly (a certificate added without one has its subject summary).
    public var label: String?
    /// Text the subject summary or a common name contains, in any case.
    public var subjectContains: String?
    /// `kSecAttrPublicKeyHash`: the certificates of one key pair (its ``PrivateKey/applicationLabel``).
    public var publicKeyHash: Data?
    /// `kSecAttrSerialNumber`: the serial number's bytes as encoded (``Certificate/serialNumber``).
    public var serialNumber: Data?
    /// `kSecAttrAccessGroup`; nil looks in every group the caller has.
    public var accessGroup: String?

    /// A query; leave a property nil not to filter on it.
    public init(
        label: String? = nil, subjectContains: String? = nil, publicKeyHash: Data? = nil, serialNumber: Data? = nil,
        accessGroup: String? = nil
    ) {
        self.label = label
        self.subjectContains = subjectContains
        self.publicKeyHash = publicKeyHash
        self.serialNumber = serialNumber
        self.accessGroup = accessGroup
    }

    /// The class and the attributes the keychain matches.
    var entries: QueryDictionary {
        var query = QueryDictionary()
        query[QueryKey.itemClass] = .string(ItemClass.certificate.rawValue)
        query[QueryKey.label] = label.map { .string($0) }
        query[CertificateItem.publicKeyHash] = publicKeyHash.map { .data($0) }
        query[CertificateItem.serialNumber] = serialNumber.map { .data($0) }
        query[QueryKey.accessGroup] = accessGroup.map { .string($0) }
        return query
    }

    /// Whether `certificate` passes ``subjectContains``.
    func admits(_ certificate: Certificate) -> Bool {
        guard let subjectContains else { return true }
        return Self.subject(of: certificate, contains: subjectContains)
    }

    /// Whether the subject summary or a common name of `certificate` contains `text`, in any case.
    static func subject(of certificate: Certificate, contains text: String) -> Bool {
        ([certificate.subjectSummary].compactMap { $0 } + certificate.commonNames).contains {
            $0.range(of: text, options: .caseInsensitive) != nil
        }
    }
}
