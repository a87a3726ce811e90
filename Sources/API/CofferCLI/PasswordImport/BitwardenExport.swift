import Foundation

/// Bitwarden's JSON export (Tools ▸ Export vault ▸ `.json`, or `bw export --format json`), unencrypted: logins
/// become items; secure notes, cards, identities and SSH keys are listed as not imported.
enum BitwardenExport {
    private struct Vault: Decodable {
        var encrypted: Bool?
        var items: [Entry]?
    }

    private struct Entry: Decodable {
        var type: Int
        var name: String?
        var notes: String?
        var login: Login?
    }

    private struct Login: Decodable {
        var username: String?
        var password: String?
        var totp: String?
        var uris: [Site]?
    }

    private struct Site: Decodable {
        var uri: String?
    }

    static func read(_ data: Data, name: String) throws -> ImportSource {
        let vault: Vault
        do {
            vault = try JSONDecoder().decode(Vault.self, from: data)
        } catch {
            throw CLIFailure("import: \(name) is not a Bitwarden JSON export (\(JSONReading.describe(error)))")
        }
        if vault.encrypted == true {
            throw CLIFailure("import: \(name) is an encrypted Bitwarden export; export the vault again as .json without a password")
        }
        guard let items = vault.items else { throw CLIFailure("import: \(name) is not a Bitwarden JSON export (no \"items\")") }
        var source = ImportSource()
        for (index, entry) in items.enumerated() {
            let shown = entry.name.flatMap { $0.isEmpty ? nil : $0 } ?? "item \(index + 1)"
            guard entry.type == 1, let login = entry.login else {
                source.leftOut.append(ImportNote(entry: shown, reason: "a Bitwarden \(kind(entry.type)), not a login"))
                continue
            }
            guard let password = login.password, !password.isEmpty else {
                source.leftOut.append(ImportNote(entry: shown, reason: "no password"))
                continue
            }
            if let totp = login.totp, !totp.isEmpty {
                source.leftOut.append(ImportNote(entry: shown, reason: "imported without its TOTP seed (Coffer keeps no one-time-password seeds)"))
            }
            source.logins.append(
                ImportedLogin(
                    title: shown, username: login.username ?? "", password: Data(password.utf8),
                    urls: (login.uris ?? []).compactMap(\.uri), notes: entry.notes))
        }
        return source
    }

    private static func kind(_ type: Int) -> String {
        switch type {
        case 2: "secure note"
        case 3: "card"
        case 4: "identity"
        case 5: "SSH key"
        default: "item of type \(type)"
        }
    }
}

/// Where a JSON document stopped making sense, without quoting its contents (which may hold secrets).
enum JSONReading {
    static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "not JSON of that shape" : "unexpected value at \(path)"
        case nil:
            return "not JSON"
        @unknown default:
            return "not JSON of that shape"
        }
    }
}
