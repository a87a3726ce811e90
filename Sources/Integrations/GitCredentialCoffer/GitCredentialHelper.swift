import CredentialHelperSupport
import Foundation
import KeychainModel

/// `get`, `store` and `erase` of git's credential helper protocol, on internet-password items stored as
/// git-credential-osxkeychain stores them: `kSecAttrServer` the host, `kSecAttrProtocol` from
/// ``GitProtocolCodes``, `kSecAttrPort`, `kSecAttrPath`, `kSecAttrAccount` the user name,
/// `kSecAttrAuthenticationType` `dflt`, `kSecAttrLabel` the host, and the data a ``StoredSecret``.
struct GitCredentialHelper {
    /// The keychain's items.
    let items: InternetPasswordItems
    /// The time expiries are compared with.
    let now: Date

    /// A helper's refusal: a line for standard error that never holds a secret.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The item query for `credential`'s fields (those it gives), or nil when its protocol is not handled.
    static func query(for credential: GitCredential) -> InternetPasswordQuery? {
        var code: String?
        if let name = credential.protocol {
            guard let known = GitProtocolCodes.code(for: name) else { return nil }
            code = known
        }
        return InternetPasswordQuery(
            server: credential.host, protocolCode: code, port: credential.port, path: credential.path,
            account: credential.username, authenticationType: "dflt")
    }

    /// The lines `get` prints: the first matching item whose password has not expired, or none. An item holding
    /// a pre-encoded credential is returned only to a git that announced the `authtype` capability, with
    /// `capability[]=authtype` first, as git-credential(1) asks.
    func get(_ credential: GitCredential) throws -> String {
        guard let query = Self.query(for: credential), credential.host != nil else { return "" }
        for item in try keychain({ () throws(KeychainFailure) in try items.find(query, withSecrets: true) }) {
            guard let data = item.secret else { continue }
            let secret = StoredSecret(data: data)
            if secret.isExpired(now: now) { continue }
            var output: String
            if let authtype = secret.authtype {
                guard credential.understandsAuthtype else { continue }
                output = "capability[]=\(GitCredential.authtypeCapability)\nauthtype=\(authtype)\ncredential=\(secret.password)\n"
                if let account = item.attributes.account, !account.isEmpty { output += "username=\(account)\n" }
            } else {
                output = "username=\(item.attributes.account ?? "")\npassword=\(secret.password)\n"
            }
            if let expiry = secret.passwordExpiry { output += "password_expiry_utc=\(expiry)\n" }
            if let token = secret.oauthRefreshToken { output += "oauth_refresh_token=\(token)\n" }
            return output
        }
        return ""
    }

    /// Stores a complete credential, replacing the item with the same key: protocol, host, username and password,
    /// or (from a git with the `authtype` capability) protocol, host, `authtype` and `credential`, the username
    /// optional. An ephemeral credential and a password already expired are not stored.
    func store(_ credential: GitCredential) throws {
        if credential.isEphemeral { return }
        let required: [(String, String?)]
        let secret: StoredSecret
        if let token = credential.credential {
            required = [("protocol", credential.protocol), ("host", credential.host), ("authtype", credential.authtype)]
            secret = StoredSecret(
                password: token, authtype: credential.authtype, passwordExpiry: credential.passwordExpiry,
                oauthRefreshToken: credential.oauthRefreshToken)
        } else {
            required = [("protocol", credential.protocol), ("host", credential.host), ("username", credential.username), ("password", credential.password)]
            secret = StoredSecret(
                password: credential.password ?? "", passwordExpiry: credential.passwordExpiry, oauthRefreshToken: credential.oauthRefreshToken)
        }
        let missing = required.filter { $0.1 == nil }.map(\.0)
        guard missing.isEmpty else {
            throw Failure(description: "store: the credential has no \(missing.joined(separator: ", ")); nothing stored")
        }
        guard var attributes = Self.query(for: credential) else { return }
        if secret.isExpired(now: now) { return }
        attributes.label = credential.host
        try keychain { () throws(KeychainFailure) in try items.upsert(attributes, secret: secret.data) }
    }

    /// Removes the items matching every field given (at least protocol and host); with a password (or a
    /// pre-encoded credential), only those whose stored password (or credential) is that one.
    func erase(_ credential: GitCredential) throws {
        guard credential.protocol != nil, credential.host != nil else {
            throw Failure(description: "erase: the credential needs a protocol and a host; nothing erased")
        }
        guard let query = Self.query(for: credential) else { return }
        let expected: (value: String, isCredential: Bool)? =
            credential.credential.map { ($0, true) } ?? credential.password.map { ($0, false) }
        guard let expected else {
            try keychain { () throws(KeychainFailure) in _ = try items.delete(query.dictionary) }
            return
        }
        for item in try keychain({ () throws(KeychainFailure) in try items.find(query, withSecrets: true) }) {
            guard let data = item.secret else { continue }
            let secret = StoredSecret(data: data)
            guard secret.password == expected.value, (secret.authtype != nil) == expected.isCredential else { continue }
            try keychain { () throws(KeychainFailure) in _ = try items.delete(item.identity) }
        }
    }

    /// Runs a keychain call, turning its failure into a ``Failure`` naming the status.
    private func keychain<Result>(_ body: () throws(KeychainFailure) -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            let advice = error.status == .interactionNotAllowed ? " Unlock the keychain first: coffer unlock." : ""
            throw Failure(description: "the keychain refused: \(error.description)\(advice)")
        }
    }
}
