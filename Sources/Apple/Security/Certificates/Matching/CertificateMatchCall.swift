import Foundation
import KeychainModel
import Query

/// `SecItemCopyMatching` with `kSecMatchIssuers`, `kSecMatchPolicy`, `kSecMatchValidOnDate` or
/// `kSecMatchTrustedOnly` on certificates or identities — the classic way to pick a client identity whose
/// issuer a TLS server accepts.
///
/// Apple's daemon parses certificates to apply these; Coffer's keychain does not, so this module does: it asks the
/// keychain for every item the rest of the query matches (with their references and attributes), keeps those whose
/// certificate passes (``CertificateMatch``), applies the match limit, and hands back what the query's
/// `kSecReturn…` keys ask for, shaped as the keychain would have.
enum CertificateMatchCall {
    private static let matchKeys: Set<String> = [
        QueryKey.matchIssuers, QueryKey.matchPolicy, QueryKey.matchValidOnDate, QueryKey.matchTrustedOnly,
    ]
    private static let returnKeys = [QueryKey.returnData, QueryKey.returnAttributes, QueryKey.returnRef, QueryKey.returnPersistentRef]

    /// The call, or nil when `query` has none of these matches or is not on certificates or identities. `searched` is
    /// `query` as `SecItemCopyMatching` has already read it, so a query without these matches costs four lookups.
    static func copyMatching(_ query: CFDictionary, searched: QueryDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus? {
        guard matchKeys.contains(where: { searched[$0] != nil }) else { return nil }
        var found: [String: Any] = [:]
        for (key, value) in query where matchKeys.contains("\(key)") { found["\(key)"] = value }
        guard !found.isEmpty else { return nil }
        let bridged = ValueBridge.query(query)
        let itemClass = bridged[QueryKey.itemClass]?.stringValue
        guard itemClass == ItemClass.certificate.rawValue || itemClass == ItemClass.identity.rawValue else { return nil }
        let match: CertificateMatch
        switch Self.match(found) {
        case .success(let parsed): match = parsed
        case .failure(let error): return error.status
        }

        var inner = entries(of: query).filter { !matchKeys.contains($0.key) && $0.key != QueryKey.matchLimit }
        inner[QueryKey.matchLimit] = kSecMatchLimitAll
        inner[QueryKey.returnRef] = kCFBooleanTrue
        inner[QueryKey.returnAttributes] = kCFBooleanTrue
        var everything: CFTypeRef?
        let status = SecItemCopyMatching(NSDictionary(dictionary: inner), &everything)
        guard status == errSecSuccess else { return status }
        let parents: (Data) -> [Data] = issuersOfCertificates(withSubject:)
        let kept = ((everything as? [Any]) ?? []).compactMap { $0 as? [String: Any] }.filter { item in
            guard let certificate = certificate(of: item) else { return false }
            return match.admits(certificate, issuerParents: parents)
        }
        guard !kept.isEmpty else { return errSecItemNotFound }

        let asked = Set(returnKeys.filter { bridged[$0] == .bool(true) })
        switch bridged[QueryKey.matchLimit] {
        case .number(let limit)?:
            result?.pointee = NSArray(array: kept.prefix(max(Int(limit), 0)).compactMap { shaped($0, asked: asked) })
        case .string(QueryConstant.matchLimitAll)?:
            result?.pointee = NSArray(array: kept.compactMap { shaped($0, asked: asked) })
        default:
            if let first = shaped(kept[0], asked: asked) { result?.pointee = first }
        }
        return errSecSuccess
    }

    /// The matches as given, or Apple's status for a value of the wrong kind.
    private static func match(_ found: [String: Any]) -> Result<CertificateMatch, OSStatusError> {
        var match = CertificateMatch()
        if let issuers = found[QueryKey.matchIssuers] {
            guard case .array(let names) = ValueBridge.value(of: issuers) else { return .failure(OSStatusError(errSecParam)) }
            let normalized = names.compactMap { name -> Data? in
                guard case .data(let der) = name else { return nil }
                return CertificateReferences.normalizedIssuer(der)
            }
            // As Apple's: a list with no usable name is no filter.
            if !normalized.isEmpty { match.issuers = normalized }
        }
        if let policy = found[QueryKey.matchPolicy] {
            let given = (policy as? SecPolicy) ?? ((policy as? [Any])?.count == 1 ? (policy as? [Any])?.first as? SecPolicy : nil)
            guard let given else { return .failure(OSStatusError(errSecParam)) }
            match.policy = given
        }
        if let date = found[QueryKey.matchValidOnDate] {
            switch ValueBridge.value(of: date) {
            case .date(let when): match.validOnDate = when
            case .null: match.validOnDate = Date()
            default: return .failure(OSStatusError(errSecParam))
            }
        }
        if let trusted = found[QueryKey.matchTrustedOnly] {
            guard case .bool(let flag) = ValueBridge.value(of: trusted) else { return .failure(OSStatusError(errSecParam)) }
            match.trustedOnly = flag
        }
        return .success(match)
    }

    /// The item's certificate: its reference, or its identity's certificate.
    private static func certificate(of item: [String: Any]) -> SecCertificate? {
        let reference = item[QueryKey.valueRef]
        if let certificate = reference as? SecCertificate { return certificate }
        return (reference as? SecIdentity)?.certificate
    }

    /// The issuers of the keychain's certificates whose subject is `subject` (normalized name contents).
    private static func issuersOfCertificates(withSubject subject: Data) -> [Data] {
        let query: NSDictionary = [
            kSecClass: kSecClassCertificate, kSecAttrSubject: subject as NSData, kSecMatchLimit: kSecMatchLimitAll,
            kSecReturnAttributes: kCFBooleanTrue as Any,
        ]
        var found: CFTypeRef?
        guard SecItemCopyMatching(query, &found) == errSecSuccess else { return [] }
        return ((found as? [Any]) ?? []).compactMap { ($0 as? [String: Any])?[kSecAttrIssuer as String] as? Data }
    }

    /// One item as the query's return keys ask for it; nil when they ask for nothing.
    private static func shaped(_ item: [String: Any], asked: Set<String>) -> AnyObject? {
        switch asked {
        case []: return nil
        case [QueryKey.returnRef]: return item[QueryKey.valueRef] as AnyObject?
        case [QueryKey.returnData]: return ResultData(copying: item[QueryKey.valueData] as? Data ?? Data())
        case [QueryKey.returnPersistentRef]: return item[QueryKey.valuePersistentRef] as AnyObject?
        default:
            var dictionary = item
            if !asked.contains(QueryKey.returnRef) {
                dictionary[QueryKey.valueRef] = nil
                dictionary[QueryKey.itemClass] = nil
            }
            return NSDictionary(dictionary: dictionary)
        }
    }

    /// The entries of `dictionary` under their string keys.
    private static func entries(of dictionary: CFDictionary) -> [String: Any] {
        var entries: [String: Any] = [:]
        for (key, value) in dictionary { entries["\(key)"] = value }
        return entries
    }
}

/// A status as an error, for ``CertificateMatchCall``'s parsing.
struct OSStatusError: Error {
    let status: OSStatus
    init(_ status: OSStatus) { self.status = status }
}
