import Foundation

/// The FIDO Alliance's Credential Exchange Format (CXF 1.0): a header with accounts, each with items whose
/// credentials are typed. An item's `basic-auth` credential (user name and password) becomes a keychain item,
/// for the first URL of the item's scope; its `note` becomes the comment. Passkeys, TOTP seeds, cards, SSH keys
/// and the other credential types are listed as not imported.
enum CredentialExchangeExport {
    private struct Header: Decodable {
        var version: Version?
        var accounts: [Account]
    }

    private struct Version: Decodable {
        var major: Int
    }

    private struct Account: Decodable {
        var items: [Item]
    }

    private struct Item: Decodable {
        var title: String
        var scope: Scope?
        var credentials: [Credential]
    }

    private struct Scope: Decodable {
        var urls: [String]?
    }

    /// A credential: its type, and the fields of the two types read (other types' fields differ and are skipped).
    private struct Credential: Decodable {
        var type: String
        var username: Field?
        var password: Field?
        var content: Field?

        private enum Key: String, CodingKey {
            case type, username, password, content
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            type = try container.decode(String.self, forKey: .type)
            switch type {
            case "basic-auth":
                username = try container.decodeIfPresent(Field.self, forKey: .username)
                password = try container.decodeIfPresent(Field.self, forKey: .password)
            case "note":
                content = try container.decodeIfPresent(Field.self, forKey: .content)
            default:
                break
            }
        }
    }

    private struct Field: Decodable {
        var value: String
    }

    static func read(_ data: Data, name: String) throws -> ImportSource {
        let header: Header
        do {
            header = try JSONDecoder().decode(Header.self, from: data)
        } catch {
            throw CLIFailure("import: \(name) is not a Credential Exchange (CXF) file (\(JSONReading.describe(error)))")
        }
        if let major = header.version?.major, major != 1 {
            throw CLIFailure("import: \(name) is CXF version \(major); Coffer reads version 1")
        }
        var source = ImportSource()
        for item in header.accounts.flatMap(\.items) {
            let logins = item.credentials.filter { $0.type == "basic-auth" }
            let note = item.credentials.first { $0.type == "note" }?.content?.value
            let others = Set(item.credentials.map(\.type)).subtracting(["basic-auth", "note"]).sorted()
            if !others.isEmpty {
                let what = others.joined(separator: ", ")
                source.leftOut.append(ImportNote(entry: item.title, reason: logins.isEmpty ? "holds no password (\(what))" : "imported without its \(what)"))
            }
            for login in logins {
                guard let password = login.password?.value, !password.isEmpty else {
                    source.leftOut.append(ImportNote(entry: item.title, reason: "no password"))
                    continue
                }
                source.logins.append(
                    ImportedLogin(
                        title: item.title, username: login.username?.value ?? "", password: Data(password.utf8),
                        urls: item.scope?.urls ?? [], notes: note))
            }
        }
        return source
    }
}
