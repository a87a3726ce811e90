import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import Query
import Security

/// `export --private-key`: the private key of a key selection (`--tag`, `-l`, `--application-label`) or of an
/// identity (`-c NAME`, else the first), written as PKCS#8 PEM only when its item says it may leave the keychain.
///
/// The key's attributes are read first: a key that never leaves the keychain (`kSecAttrTokenID`, Coffer's Secure
/// Enclave) or whose `kSecAttrIsExtractable` is false is refused with the reason, before its bytes are read. The
/// bytes then come straight from the item's data, are turned into PEM in zeroizing buffers (``PrivateKeyInfo``) and
/// written with `write(2)`; the copy this process holds is zeroized afterwards. They never pass through an argument,
/// a log line or a temporary file.
enum PrivateKeyExport {
    /// The key to export: its item's attributes, and how to name it in messages.
    struct Chosen {
        let attributes: [String: KeychainValue]
        let name: String
    }

    /// The private key `selection` names, else the first identity's whose certificate `certificateName` names.
    static func choose(selection: KeySelection, certificateName: String?, client: any KeychainClient, command: String) throws -> Chosen {
        if !selection.isEmpty {
            var query = selection.entries
            query[.string(QueryKey.keyClass)] = .string(kSecAttrKeyClassPrivate as String)
            query[.string(QueryKey.matchLimit)] = .string(QueryConstant.matchLimitOne)
            query[.string(QueryKey.returnAttributes)] = .bool(true)
            let result = try ItemCommandSupport.run(command) { () throws(KeychainFailure) in
                try client.blocking.copyMatching(QueryDictionary(query))
            }
            guard case .dictionary(let attributes)? = result else { throw CLIFailure("\(command): unexpected result shape") }
            let name = selection.label ?? selection.tag ?? selection.applicationLabel ?? "the key"
            return Chosen(attributes: attributes, name: "the private key “\(name)”")
        }
        var identities = try IdentityItems.all(client: client, command: command)
        if let certificateName { identities = identities.filter { IdentityItems.matches($0, certificateName) } }
        guard let identity = identities.first else {
            let what = certificateName.map { " matches “\($0)”" } ?? " is in the keychain"
            throw CLIFailure(
                "\(command): errSecItemNotFound (-25300): no identity (a certificate with its private key)\(what)",
                exitCode: ItemCommandSupport.exitCode(for: .itemNotFound))
        }
        let summary = SecCertificateCopySubjectSummary(identity.certificate).map { String($0) } ?? "the certificate"
        return Chosen(attributes: identity.attributes, name: "the private key of “\(summary)”")
    }

    /// Refuses a key that may not leave the keychain, naming why.
    static func requireExportable(_ chosen: Chosen, command: String) throws {
        if case .string(KeyItem.secureEnclaveTokenID)? = chosen.attributes[QueryKey.tokenID] {
            throw CLIFailure(
                "\(command): \(chosen.name) never leaves the keychain (it was made inside it, as a Secure Enclave key is); it cannot be exported")
        }
        let extractable: Bool? =
            switch chosen.attributes["extr"] {
            case .bool(let flag)?: flag
            case .number(let number)?: number != 0
            default: nil
            }
        guard extractable == true else {
            throw CLIFailure("\(command): \(chosen.name) is not extractable (kSecAttrIsExtractable is false); it cannot be exported")
        }
    }

    /// Writes the chosen key as PKCS#8 PEM to `destination`.
    static func export(_ chosen: Chosen, to destination: ExportDestination, client: any KeychainClient, command: String) throws {
        guard case .data(let applicationLabel)? = chosen.attributes[QueryKey.applicationLabel],
            let typeCode = KeyItem.code(chosen.attributes[QueryKey.type]), let type = KeyType(rawValue: typeCode)
        else { throw CLIFailure("\(command): \(chosen.name) has no application label or key type") }
        var query: [KeychainValue: KeychainValue] = [
            .string(QueryKey.itemClass): .string(ItemClass.key.rawValue),
            .string(QueryKey.keyClass): .string(kSecAttrKeyClassPrivate as String),
            .string(QueryKey.applicationLabel): .data(applicationLabel),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitOne),
            .string(QueryKey.returnData): .bool(true),
        ]
        if let tag = chosen.attributes[QueryKey.applicationTag] { query[.string(QueryKey.applicationTag)] = tag }
        var bytes = try readData(query, client: client, command: command)
        defer { bytes.zeroize() }
        do {
            try bytes.withUnsafeBytes { key in
                try PrivateKeyInfo.withPEM(externalRepresentation: key, type: type) { pem in
                    try destination.write(pem, command: command)
                }
            }
        } catch let error as KeyCryptoError {
            throw CLIFailure("\(command): \(chosen.name) cannot be written as PKCS#8: \(error.message)")
        }
    }

    /// The data of the one item `query` names; the answer holding it is released before this returns, so the
    /// caller's copy is the only one left to zeroize.
    private static func readData(_ query: [KeychainValue: KeychainValue], client: any KeychainClient, command: String) throws -> Data {
        let result = try ItemCommandSupport.run(command) { () throws(KeychainFailure) in
            try client.blocking.copyMatching(QueryDictionary(query))
        }
        guard case .data(let bytes)? = result else { throw CLIFailure("\(command): the keychain returned no key data") }
        return bytes
    }
}
