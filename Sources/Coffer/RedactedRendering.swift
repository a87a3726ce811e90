import Foundation
import KeychainModel
import Query

/// Renders query dictionaries and values for messages and logs, with every secret replaced by
/// `<redacted N bytes>`.
///
/// Secret keys are `kSecValueData`, the credential handle `kSecUseCredentialReference`, and every
/// attribute the schema marks as part of the secret (the internet-password extra data fields).
enum RedactedRendering {
    /// `{key: value, …}` with keys sorted and secrets redacted.
    static func render(_ dictionary: QueryDictionary) -> String {
        renderEntries(dictionary.entries.map { entry in (render(key: entry.key), entry.key.stringValue, entry.value) })
    }

    /// One value; dictionaries inside it are redacted too.
    static func render(_ value: KeychainValue) -> String {
        switch value {
        case .string(let text):
            return String(reflecting: text)
        case .data(let bytes):
            return bytes.count <= 32 ? "<" + hex(bytes) + ">" : "<\(bytes.count) bytes>"
        case .number(let number):
            return String(number)
        case .double(let number):
            return String(number)
        case .bool(let flag):
            return String(flag)
        case .date(let moment):
            return moment.formatted(.iso8601)
        case .null:
            return "null"
        case .uuid(let identifier):
            return identifier.uuidString
        case .array(let elements):
            let rendered: [String] = elements.map { element in render(element) }
            return "[" + rendered.joined(separator: ", ") + "]"
        case .dictionary(let entries):
            return renderEntries(entries.map { entry in (String(reflecting: entry.key), entry.key, entry.value) })
        case .accessControl(let control):
            return "AccessControl(\(control.protection.rawValue), flags: 0x" + String(control.flags.rawValue, radix: 16) + ")"
        case .unsupported(let typeName):
            return "<\(typeName)>"
        }
    }

    /// What stands in for a secret of `byteCount` bytes.
    static func redacted(byteCount: Int) -> String { "<redacted \(byteCount) bytes>" }

    /// Whether values under `key` are secrets.
    static func isSecret(_ key: String) -> Bool {
        if key == QueryKey.valueData || key == QueryKey.useCredentialReference { return true }
        return ItemClass.allCases.contains { itemClass in
            AttributeCatalogue.descriptor(for: key, in: itemClass)?.flags.contains(.secret) == true
        }
    }

    private static func renderEntries(_ entries: [(label: String, key: String?, value: KeychainValue)]) -> String {
        let rendered = entries.sorted { $0.label < $1.label }.map { entry in
            let value = entry.key.map(isSecret) == true ? redacted(entry.value) : render(entry.value)
            return "\(entry.label): \(value)"
        }
        return "{" + rendered.joined(separator: ", ") + "}"
    }

    private static func render(key: KeychainValue) -> String {
        key.stringValue ?? render(key)
    }

    /// A secret's stand-in: its length only (UTF-8 bytes for text, element bytes for anything else).
    private static func redacted(_ value: KeychainValue) -> String {
        switch value {
        case .data(let bytes): redacted(byteCount: bytes.count)
        case .string(let text): redacted(byteCount: text.utf8.count)
        default: "<redacted \(value.typeName)>"
        }
    }

    private static func hex(_ bytes: Data) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { byte in [digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]] })
    }
}
