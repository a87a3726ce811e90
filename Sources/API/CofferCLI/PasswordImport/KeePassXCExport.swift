import Foundation

/// KeePassXC's CSV export (Database ▸ Export ▸ CSV, or `keepassxc-cli export -f csv`): a header row, then one
/// row per entry with its group path, title, user name, password, URL, notes and TOTP.
enum KeePassXCExport {
    static func read(_ data: Data, name: String) throws -> ImportSource {
        guard let text = String(data: data, encoding: .utf8) else { throw CLIFailure("import: \(name) is not UTF-8 text (KeePassXC writes its CSV in UTF-8)") }
        let records: [[String]]
        do {
            records = try CSVRecords.parse(text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text)
        } catch {
            throw CLIFailure("import: \(name): a quoted field opened on line \(error.line) is never closed")
        }
        guard let header = records.first else { throw CLIFailure("import: \(name) is empty") }
        let column = Dictionary(header.enumerated().map { ($1.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        guard let title = column["title"], let password = column["password"] else {
            throw CLIFailure("import: \(name) is not a KeePassXC CSV export (no Title and Password columns in its first line)")
        }
        var source = ImportSource()
        for (offset, record) in records.dropFirst().enumerated() {
            func field(_ name: String) -> String? { column[name].flatMap { $0 < record.count ? record[$0] : nil } }
            let entryTitle = field("title") ?? ""
            let group = field("group") ?? ""
            let shown = entryTitle.isEmpty ? "line \(offset + 2)" : (group.isEmpty ? entryTitle : "\(group)/\(entryTitle)")
            guard record.count > max(title, password) else {
                source.leftOut.append(ImportNote(entry: shown, reason: "the row has \(record.count) fields, fewer than the header"))
                continue
            }
            if group.split(separator: "/").contains("Recycle Bin") {
                source.leftOut.append(ImportNote(entry: shown, reason: "in the recycle bin"))
                continue
            }
            let secret = field("password") ?? ""
            guard !secret.isEmpty else {
                source.leftOut.append(ImportNote(entry: shown, reason: "no password"))
                continue
            }
            if let totp = field("totp"), !totp.isEmpty {
                source.leftOut.append(ImportNote(entry: shown, reason: "imported without its TOTP seed (Coffer keeps no one-time-password seeds)"))
            }
            source.logins.append(
                ImportedLogin(
                    title: entryTitle.isEmpty ? shown : entryTitle, username: field("username") ?? "", password: Data(secret.utf8),
                    urls: [field("url") ?? ""], notes: field("notes")))
        }
        return source
    }
}
