import ArgumentParser
import Foundation
import KeychainClient
import KeychainModel
import Query

/// The attributes macOS `security` lets internet-password commands name.
struct InternetPasswordAttributes: PasswordAttributes {
    static let kind = "internet"
    static let itemClass = ItemClass.internetPassword

    @Option(name: .customShort("s"), help: ArgumentHelp("Server name (kSecAttrServer).", valueName: "server"))
    var server: String?
    @Option(name: .customShort("a"), help: ArgumentHelp("Account name (kSecAttrAccount).", valueName: "account"))
    var account: String?
    @Option(name: .customShort("d"), help: ArgumentHelp("Security domain (kSecAttrSecurityDomain).", valueName: "security-domain"))
    var securityDomain: String?
    @Option(
        name: .customShort("r"), help: ArgumentHelp("Protocol, as a four-character code such as 'htps' or 'ftp ' (kSecAttrProtocol).", valueName: "protocol"))
    var `protocol`: String?
    @Option(name: .customShort("P"), help: ArgumentHelp("Port number (kSecAttrPort).", valueName: "port"))
    var port: Int?
    @Option(name: .customShort("p"), help: ArgumentHelp("Path (kSecAttrPath).", valueName: "path"))
    var path: String?
    @Option(
        name: .customShort("t"),
        help: ArgumentHelp(
            "Authentication type, as a four-character code such as 'dflt' or 'form' (kSecAttrAuthenticationType).", valueName: "authentication-type"))
    var authenticationType: String?
    @Option(name: .customShort("l"), help: ArgumentHelp("Label (kSecAttrLabel).", valueName: "label"))
    var label: String?
    @Option(name: .customShort("j"), help: ArgumentHelp("Comment (kSecAttrComment).", valueName: "comment"))
    var comment: String?
    @Option(name: .customShort("D"), help: ArgumentHelp("Kind (kSecAttrDescription).", valueName: "kind"))
    var kind: String?

    func validate() throws {
        for (flag, code) in [("-r", `protocol`), ("-t", authenticationType)] {
            if let code, code.utf8.count != 4 {
                throw ValidationError("\(flag) takes a four-character code (pad with spaces, e.g. 'ftp '), not '\(code)'.")
            }
        }
        if let port, !(0...65535).contains(port) { throw ValidationError("-P takes a port from 0 to 65535, not \(port).") }
    }

    static let attributeFlags: [String: String] = [
        "s": QueryKey.server, "a": QueryKey.account, "d": QueryKey.securityDomain, "r": QueryKey.protocol,
        "P": QueryKey.port, "p": QueryKey.path, "t": QueryKey.authenticationType, "l": QueryKey.label,
        "j": QueryKey.comment, "D": QueryKey.description,
    ]

    var flagValues: [String: String] {
        [
            "s": server, "a": account, "d": securityDomain, "r": `protocol`, "P": port.map(String.init), "p": path,
            "t": authenticationType, "l": label, "j": comment, "D": kind,
        ].compactMapValues { $0 }
    }

    static func entries(_ values: [String: String]) -> [KeychainValue: KeychainValue]? {
        var entries: [KeychainValue: KeychainValue] = [.string(QueryKey.itemClass): .string(itemClass.rawValue)]
        for (flag, value) in values {
            guard let code = attributeFlags[flag] else { return nil }
            switch flag {
            case "P":
                guard let port = Int(value), (0...65535).contains(port) else { return nil }
                entries[.string(code)] = .number(Int64(port))
            case "r", "t":
                guard value.utf8.count == 4 else { return nil }
                entries[.string(code)] = .string(value)
            default:
                entries[.string(code)] = .string(value)
            }
        }
        return entries
    }
}
