import Foundation
import KeychainClient
import KeychainModel
import Query
import Security

/// The identities of the keychain as `find-identity` and `export --private-key` read them: a `kSecClassIdentity`
/// search of private keys (a stored public key also pairs with its certificate, reference §7.4) through the client,
/// asking for attributes only. An identity's attributes carry its certificate's DER (`certdata`) and its key's
/// attributes, so the private key itself is never read to list identities.
enum IdentityItems {
    /// One identity: its attributes (the key's overlaid with the certificate's) and its certificate.
    struct Found {
        let attributes: [String: KeychainValue]
        let der: Data
        let certificate: SecCertificate

        /// The certificate's label (`kSecAttrLabel`), when it has one.
        var label: String? {
            if case .string(let text)? = attributes[QueryKey.label] { return text }
            if case .data(let bytes)? = attributes[QueryKey.label] { return String(data: bytes, encoding: .utf8) }
            return nil
        }

        /// The key's application label (`kSecAttrApplicationLabel`), which names the private key item.
        var applicationLabel: Data? {
            if case .data(let bytes)? = attributes[QueryKey.applicationLabel] { return bytes }
            return nil
        }
    }

    /// Every identity, in the order their certificates were added; none when there is none.
    static func all(client: any KeychainClient, command: String) throws -> [Found] {
        let query: [KeychainValue: KeychainValue] = [
            .string(QueryKey.itemClass): .string(ItemClass.identity.rawValue),
            .string(QueryKey.keyClass): .string(kSecAttrKeyClassPrivate as String),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll),
            .string(QueryKey.returnAttributes): .bool(true),
        ]
        return try CertificateItems.allMatches(QueryDictionary(query), client: client, command: command).compactMap { item in
            guard case .dictionary(let attributes) = item, case .data(let der)? = attributes[QueryKey.identityCertificateData],
                let certificate = SecCertificateCreateWithData(nil, der as CFData)
            else { return nil }
            return Found(attributes: attributes, der: der, certificate: certificate)
        }
    }

    /// `find-identity -s` and `export -c`: whether the certificate's subject summary, common name or label contains
    /// `text`, in any case.
    static func matches(_ identity: Found, _ text: String) -> Bool {
        CertificateItems.names(of: identity.certificate, contain: text)
            || identity.label?.range(of: text, options: .caseInsensitive) != nil
    }
}
