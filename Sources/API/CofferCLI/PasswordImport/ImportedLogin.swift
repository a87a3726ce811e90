import Foundation
import KeychainModel
import Query

/// One login read from another password manager's export, before it becomes a keychain item.
struct ImportedLogin {
    /// The entry's name in the other manager (a `pass` path, a KeePassXC title), for the item's label and
    /// for the report.
    var title: String
    /// The account name; empty when the entry has none.
    var username: String
    /// The password's bytes (UTF-8 as the export holds it).
    var password: Data
    /// The sites it is for; the first that names a host makes the item an internet password.
    var urls: [String] = []
    /// The entry's notes, kept in the item's comment (`kSecAttrComment`).
    var notes: String?

    /// The `SecItemAdd` dictionary: an internet password for a URL with a host (server, protocol, port and
    /// path from it), else a generic password whose service is the title. The label is the title either way.
    var query: QueryDictionary {
        var entries: [KeychainValue: KeychainValue] = [
            .string(QueryKey.label): .string(title),
            .string(QueryKey.account): .string(username),
            .string(QueryKey.valueData): .data(password),
        ]
        if let notes, !notes.isEmpty { entries[.string(QueryKey.comment)] = .string(notes) }
        if let site = urls.lazy.compactMap(ImportedSite.init).first {
            entries[.string(QueryKey.itemClass)] = .string(ItemClass.internetPassword.rawValue)
            entries[.string(QueryKey.server)] = .string(site.host)
            if let code = site.protocolCode { entries[.string(QueryKey.`protocol`)] = .string(code) }
            if let port = site.port { entries[.string(QueryKey.port)] = .number(Int64(port)) }
            if !site.path.isEmpty { entries[.string(QueryKey.path)] = .string(site.path) }
        } else {
            entries[.string(QueryKey.itemClass)] = .string(ItemClass.genericPassword.rawValue)
            entries[.string(QueryKey.service)] = .string(title)
        }
        return QueryDictionary(entries)
    }
}

/// A URL as an internet password stores it. A URL without a scheme (`mail.example.com`, as KeePassXC and
/// `pass` entries often hold them) is read as `https://`.
struct ImportedSite {
    let host: String
    /// Apple's `kSecAttrProtocol` code for the scheme (`htps`, `http`, `ftp `…); nil for a scheme it has none for.
    let protocolCode: String?
    let port: Int?
    let path: String

    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let withScheme = trimmed.contains("://") ? trimmed : "https://" + trimmed
        guard let components = URLComponents(string: withScheme), let host = components.host, !host.isEmpty else { return nil }
        self.host = host.lowercased()
        protocolCode = components.scheme.flatMap { Self.protocolCodes[$0.lowercased()] }
        port = components.port
        path = components.path == "/" ? "" : components.path
    }

    /// Apple's protocol codes, by URL scheme.
    private static let protocolCodes: [String: String] = [
        "https": "htps", "http": "http", "ftp": "ftp ", "ftps": "ftps", "ssh": "ssh ", "sftp": "ssh ", "imap": "imap",
        "imaps": "imps", "pop3": "pop3", "pop3s": "pops", "smtp": "smtp", "ldap": "ldap", "ldaps": "ldps", "smb": "smb ",
        "irc": "irc ", "ircs": "ircs", "telnet": "teln", "afp": "afp ", "rtsp": "rtsp", "ipp": "ipp ", "nntp": "nntp",
    ]
}

/// An entry that was not imported, or not all of it, and why (never its secret).
struct ImportNote: Equatable {
    /// The entry's name in the export.
    let entry: String
    /// What happened to it.
    let reason: String
}

/// What a reader found in an export: the logins to add, and the entries (or parts) it left out.
struct ImportSource {
    var logins: [ImportedLogin] = []
    var leftOut: [ImportNote] = []
    /// Entries that hold a login but could not be read (an entry gpg could not decrypt): the import fails.
    var unreadable: [ImportNote] = []
}
