import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import Query

/// Identities in the keychain (`kSecClassIdentity`): a certificate item and the private key item of its public
/// key, found as one (reference §7.4).
extension Keychain {
    /// Every identity `query` matches: each stored certificate paired with each stored private key whose
    /// application label is the certificate's public key hash, in the order the certificates were added; none (not an
    /// error) when nothing matches.
    ///
    /// ```swift
    /// let identities = try await keychain.identities(matching: IdentityQuery(subjectContains: "client.example"))
    /// ```
    ///
    /// Each identity's certificate carries its stored attributes. Its key carries its tag and access control; as in
    /// Apple's identity results, the label, group and protection it reports are the certificate's.
    ///
    /// - Parameters:
    ///   - query: which identities; an empty query returns every identity the caller may read.
    ///   - authenticationContext: the proof a software key's item may need to be read; nil lets the keychain prompt
    ///     when the key's access control asks for the person. A key that never leaves the keychain is always found;
    ///     its use is what its access control guards.
    public func identities(
        matching query: IdentityQuery = IdentityQuery(), authenticationContext: AuthenticationContext? = nil
    ) async throws(KeychainError) -> [Identity] {
        var dictionary = query.entries
        dictionary[QueryKey.matchLimit] = .string(QueryConstant.matchLimitAll)
        dictionary[QueryKey.returnRef] = .bool(true)
        dictionary[QueryKey.returnAttributes] = .bool(true)
        dictionary[QueryKey.returnPersistentRef] = .bool(true)
        dictionary[QueryKey.useAuthenticationContext] = authenticationContext?.queryValue
        let elements = try await allMatches(dictionary, expecting: "identities")
        var found: [Identity] = []
        for element in elements {
            guard let identity = IdentityRecord.identity(reading: element) else {
                throw KeychainError(
                    status: .decode, operation: .copyMatching, query: dictionary,
                    reason: "An identity's certificate or private key cannot be read.")
            }
            if query.admits(identity.certificate) { found.append(identity) }
        }
        return found
    }

    /// The first identity `query` matches, or nil when there is none.
    public func identity(
        matching query: IdentityQuery, authenticationContext: AuthenticationContext? = nil
    ) async throws(KeychainError) -> Identity? {
        try await identities(matching: query, authenticationContext: authenticationContext).first
    }

    /// Deletes `identity` as Apple's `SecItemDelete` with an identity does (reference §7.4): its certificate, then
    /// its private key unless another stored certificate still has the key's public key.
    ///
    /// - Throws: ``KeychainError`` with `errSecItemNotFound` (-25300) when neither is stored.
    public func delete(_ identity: Identity) async throws(KeychainError) {
        var certificateMissing = false
        do {
            try await delete(identity.certificate)
        } catch  where error.status == .itemNotFound {
            certificateMissing = true
        }
        let others = try await certificates(matching: CertificateQuery(publicKeyHash: identity.certificate.publicKeyHash))
        guard others.isEmpty else {
            if certificateMissing { throw KeychainError(status: .itemNotFound, operation: .delete, reason: "The identity's certificate is not stored.") }
            return
        }
        var query = QueryDictionary()
        query[QueryKey.itemClass] = .string(ItemClass.key.rawValue)
        query[QueryKey.keyClass] = .string(String(KeyClass.privateKey.rawValue))
        query[QueryKey.applicationLabel] = .data(identity.privateKey.applicationLabel)
        query[QueryKey.applicationTag] = identity.privateKey.applicationTag.map { .data($0) }
        do {
            try await client.delete(query)
        } catch  where error.status == .itemNotFound && !certificateMissing {
            return
        } catch {
            throw KeychainError(error, operation: .delete, query: query)
        }
    }
}
