import Foundation
import KeychainClient
import KeychainModel
import Query
import Security

/// The certificate items of the keychain as the certificate commands read them: every item (attributes and DER)
/// through the client, since the keychain has no `kSecMatchSubjectContains` match; `-c` is applied here.
enum CertificateItems {
    /// One certificate item: its attributes, its DER and the certificate made from it.
    struct Stored {
        let attributes: [String: KeychainValue]
        let der: Data
        let certificate: SecCertificate
    }

    /// Every certificate item, in the order they were added; none when there is none. Items whose data is no
    /// certificate are left out.
    static func all(client: any KeychainClient, command: String) throws -> [Stored] {
        let query: [KeychainValue: KeychainValue] = [
            .string(QueryKey.itemClass): .string(ItemClass.certificate.rawValue),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll),
            .string(QueryKey.returnAttributes): .bool(true),
            .string(QueryKey.returnData): .bool(true),
        ]
        return try allMatches(QueryDictionary(query), client: client, command: command).compactMap { item in
            guard case .dictionary(let attributes) = item, case .data(let der)? = attributes[QueryKey.valueData],
                let certificate = SecCertificateCreateWithData(nil, der as CFData)
            else { return nil }
            return Stored(attributes: attributes, der: der, certificate: certificate)
        }
    }

    /// The results of `query` (a search with `kSecMatchLimitAll`), none when nothing matches; a failure names
    /// `command`.
    static func allMatches(_ query: QueryDictionary, client: any KeychainClient, command: String) throws -> [KeychainValue] {
        do {
            return try client.blocking.allMatches(query)
        } catch {
            throw ItemCommandSupport.failure(command, error)
        }
    }

    /// `security`'s `-c NAME`: whether the subject summary or the common name of `certificate` contains `name`, in
    /// any case.
    static func names(of certificate: SecCertificate, contain name: String) -> Bool {
        var commonName: CFString?
        _ = SecCertificateCopyCommonName(certificate, &commonName)
        let names = [SecCertificateCopySubjectSummary(certificate), commonName].compactMap { $0.map { String($0) } }
        return names.contains { $0.range(of: name, options: .caseInsensitive) != nil }
    }
}
