import CredentialHelperSupport
import Foundation
import KeychainModel

/// docker's credential helper actions on internet-password items stored as docker's osxkeychain helper
/// stores them: `kSecAttrLabel` "Docker Credentials", `kSecAttrProtocol` `htps` or `http`, `kSecAttrServer`,
/// `kSecAttrPort`, `kSecAttrPath`, `kSecAttrAccount` the user name, `kSecAttrAuthenticationType` `dflt`.
///
/// Unlike osxkeychain, `get` and `erase` also match the label, so they never read or remove an item that is
/// not docker's (such as git's for the same host).
struct DockerCredentialHelper {
    /// The label of docker's items (`credentials.CredsLabel`).
    static let label = "Docker Credentials"

    /// The keychain's items.
    let items: InternetPasswordItems

    /// A failure, printed on standard output as docker's helpers print it.
    struct Failure: Error, CustomStringConvertible {
        let description: String

        /// `credentials not found in native keychain`, which docker matches.
        static let notFound = Failure(description: "credentials not found in native keychain")
        /// `no credentials server URL`.
        static let missingServerURL = Failure(description: "no credentials server URL")
        /// `no credentials username`.
        static let missingUsername = Failure(description: "no credentials username")
    }

    /// The item query for `serverURL`: a path or port the URL lacks is left out, so it matches any.
    static func query(for serverURL: String) throws(Failure) -> InternetPasswordQuery {
        let url: RegistryURL
        do {
            url = try RegistryURL(serverURL)
        } catch {
            throw Failure(description: error.description)
        }
        return InternetPasswordQuery(
            server: url.host, protocolCode: url.scheme == "http" ? "http" : "htps", port: url.port,
            path: url.path.isEmpty ? nil : url.path, label: label)
    }

    /// Stores `credentials`, replacing docker's item for the same URL.
    func store(_ credentials: DockerCredentials) throws {
        guard !credentials.serverURL.isEmpty else { throw Failure.missingServerURL }
        guard !credentials.username.isEmpty else { throw Failure.missingUsername }
        var attributes = try Self.query(for: credentials.serverURL)
        try keychain { () throws(KeychainFailure) in _ = try items.delete(attributes.dictionary) }
        attributes.account = credentials.username
        attributes.authenticationType = "dflt"
        try keychain { () throws(KeychainFailure) in try items.upsert(attributes, secret: Data(credentials.secret.utf8)) }
    }

    /// The credentials stored for `serverURL`.
    func get(_ serverURL: String) throws -> DockerCredentials {
        guard !serverURL.isEmpty else { throw Failure.missingServerURL }
        let query = try Self.query(for: serverURL)
        let found = try keychain { () throws(KeychainFailure) in try items.find(query, withSecrets: true) }
        guard let item = found.first, let secret = item.secret else { throw Failure.notFound }
        return DockerCredentials(
            serverURL: serverURL, username: item.attributes.account ?? "", secret: String(decoding: secret, as: UTF8.self))
    }

    /// Removes the credentials stored for `serverURL`.
    func erase(_ serverURL: String) throws {
        guard !serverURL.isEmpty else { throw Failure.missingServerURL }
        let query = try Self.query(for: serverURL)
        guard try keychain({ () throws(KeychainFailure) in try items.delete(query.dictionary) }) else { throw Failure.notFound }
    }

    /// Every docker item's URL and user name, as the JSON object `list` prints (keys sorted, as Go sorts a map).
    func list() throws -> String {
        let found = try keychain { () throws(KeychainFailure) in try items.find(InternetPasswordQuery(label: Self.label), withSecrets: false) }
        var urls: [String: String] = [:]
        for item in found {
            let attributes = item.attributes
            let url = RegistryURL.display(
                scheme: attributes.protocolCode == "htps" ? "https" : "http", host: attributes.server ?? "",
                port: attributes.port, path: attributes.path ?? "")
            urls[url] = attributes.account ?? ""
        }
        return GoJSON.object(urls.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    private func keychain<Result>(_ body: () throws(KeychainFailure) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            let advice = error.status == .interactionNotAllowed ? " Unlock the keychain first: coffer unlock." : ""
            throw Failure(description: "the keychain refused: \(error.description)\(advice)")
        }
    }
}
