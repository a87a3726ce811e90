import Foundation
import KeychainClient
import KeychainModel
import Query

/// Certificates stored in the keychain (`kSecClassCertificate`): adding, finding and deleting them.
extension Keychain {
    /// Stores `certificate` as a `kSecClassCertificate` item, as `SecItemAdd` with the certificate as
    /// `kSecValueRef` does (the attributes of reference §7.3: type, encoding, normalized subject and issuer, serial
    /// number, subject key identifier, public key hash), and returns it with its stored attributes.
    ///
    /// ```swift
    /// let certificate = try Certificate(pemRepresentation: pem)
    /// try await keychain.add(certificate: certificate)
    /// ```
    ///
    /// - Parameters:
    ///   - certificate: the certificate to store (its stored attributes, if any, are ignored).
    ///   - label: `kSecAttrLabel`; nil stores the subject summary, as Apple's client does.
    ///   - accessGroup: the access group; nil stores it in the caller's default group.
    ///   - accessibility: when the item can be read (`kSecAttrAccessible`); nil is `ProtectionClass.always` (`dk`),
    ///     Apple's default for certificates, which are public.
    /// - Throws: ``KeychainError`` with `errSecDuplicateItem` (-25299) when a certificate with the same issuer and
    ///   serial number is in the same group.
    @discardableResult
    public func add(
        certificate: Certificate, label: String? = nil, accessGroup: String? = nil, accessibility: Accessibility? = nil
    ) async throws(KeychainError) -> Certificate {
        var stored = certificate.unstored
        stored.label = label
        stored.accessGroup = accessGroup
        stored.accessibility = accessibility
        let query = CertificateItemRecord.addDictionary(for: certificate, attributes: Certificate.stored.entries(of: stored))
        let result = try await perform(.add, query) { () async throws(KeychainFailure) in try await client.add(query) }
        guard case .dictionary(let values)? = result else {
            throw KeychainError(
                status: .internal, operation: .add, query: query,
                reason: "The keychain returned \(result?.typeName ?? "nothing") where Coffer expected a dictionary of attributes.")
        }
        return CertificateItemRecord.certificate(certificate, withStored: values)
    }

    /// Every stored certificate `query` matches, in the order they were added, with their stored attributes; none
    /// (not an error) when nothing matches.
    public func certificates(matching query: CertificateQuery = CertificateQuery()) async throws(KeychainError) -> [Certificate] {
        var dictionary = query.entries
        dictionary[QueryKey.matchLimit] = .string(QueryConstant.matchLimitAll)
        dictionary[QueryKey.returnAttributes] = .bool(true)
        dictionary[QueryKey.returnData] = .bool(true)
        dictionary[QueryKey.returnPersistentRef] = .bool(true)
        let elements = try await allMatches(dictionary, expecting: "certificates")
        var found: [Certificate] = []
        for element in elements {
            guard let certificate = CertificateItemRecord.certificate(reading: element) else {
                throw KeychainError(
                    status: .decode, operation: .copyMatching, query: dictionary,
                    reason: "A certificate item holds bytes that are no DER X.509 certificate.")
            }
            if query.admits(certificate) { found.append(certificate) }
        }
        return found
    }

    /// The first stored certificate `query` matches, or nil when there is none.
    public func certificate(matching query: CertificateQuery) async throws(KeychainError) -> Certificate? {
        try await certificates(matching: query).first
    }

    /// Deletes `certificate`'s item (by its issuer and serial number, in its group when it has one). Its private key,
    /// if stored, stays.
    ///
    /// - Throws: ``KeychainError`` with `errSecItemNotFound` (-25300) when it is not stored.
    public func delete(_ certificate: Certificate) async throws(KeychainError) {
        let query = CertificateItemRecord.selection(of: certificate)
        try await perform(.delete, query) { () async throws(KeychainFailure) in try await client.delete(query) }
    }
}
