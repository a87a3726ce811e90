import Foundation
import KeychainModel

/// Renders query dictionaries, results and values for messages and logs, with every secret shown only as
/// `<redacted N bytes>`: the one rendering the Swift API's errors and descriptions and the `Security`
/// module's `COFFER_LOG=debug` lines use.
///
/// Secrets are the values under `kSecValueData`, the credential handle `kSecUseCredentialReference`, and
/// every attribute the schema marks as part of the secret (the internet-password extra data fields), at any
/// depth, and the data of an ``ItemReference`` (a key's bytes); in a result, a bare data value is the secret
/// `kSecReturnData` asked for.
public enum RedactedRendering {
    /// `{key: value, …}`, keys sorted, secrets redacted.
    public static func render(_ dictionary: QueryDictionary) -> String {
        renderEntries(dictionary.entries.map { entry in (entry.key.stringValue ?? render(entry.key), entry.key.stringValue, entry.value) })
    }

    /// A `SecItemCopyMatching` or `SecItemAdd` result: like ``render(_:)-(KeychainValue)``, except that a
    /// bare data value, alone or in an array, is a secret.
    public static func render(result: KeychainValue) -> String {
        switch result {
        case .data: redacted(result)
        case .array(let elements): "[" + elements.map { render(result: $0) }.joined(separator: ", ") + "]"
        default: render(result)
        }
    }

    /// One value; dictionaries inside it are redacted too. Data up to 32 bytes is shown in hex, longer
    /// data by its length.
    public static func render(_ value: KeychainValue) -> String {
        switch value {
        case .string(let text): String(reflecting: text)
        case .data(let bytes): bytes.count <= 32 ? "<" + Hexadecimal.text(bytes) + ">" : "<\(bytes.count) bytes>"
        case .number(let number): String(number)
        case .double(let number): String(number)
        case .bool(let flag): String(flag)
        case .date(let moment): moment.formatted(.iso8601)
        case .null: "null"
        case .uuid(let identifier): identifier.uuidString
        case .array(let elements): "[" + elements.map { render($0) }.joined(separator: ", ") + "]"
        case .dictionary(let entries): renderEntries(entries.map { entry in (entry.key, entry.key, entry.value) })
        case .accessControl(let control):
            "AccessControl(\(control.protection.rawValue), flags: 0x" + String(control.flags.rawValue, radix: 16) + ")"
        case .itemReference(let reference):
            "<\(reference.typeName) " + renderEntries(referenceEntries(reference)) + ">"
        case .unsupported(let typeName): "<\(typeName)>"
        }
    }

    /// What stands in for a secret of `byteCount` bytes.
    public static func redacted(byteCount: Int) -> String { "<redacted \(byteCount) bytes>" }

    /// Whether values under `key` are secrets.
    public static func isSecret(_ key: String) -> Bool { secretKeys.contains(key) }

    private static let secretKeys: Set<String> = {
        var keys: Set<String> = [QueryKey.valueData, QueryKey.useCredentialReference]
        for itemClass in ItemClass.allCases {
            for descriptor in AttributeCatalogue.descriptors(for: itemClass) where descriptor.flags.contains(.secret) {
                keys.insert(descriptor.code)
            }
        }
        return keys
    }()

    /// A reference's attributes and its data (a key's external representation: a secret).
    private static func referenceEntries(_ reference: ItemReference) -> [(label: String, key: String?, value: KeychainValue)] {
        var entries = reference.attributes.map { entry in (label: entry.key, key: Optional(entry.key), value: entry.value) }
        if let data = reference.data { entries.append((QueryKey.valueData, QueryKey.valueData, .data(data))) }
        return entries
    }

    private static func renderEntries(_ entries: [(label: String, key: String?, value: KeychainValue)]) -> String {
        let rendered = entries.sorted { $0.label < $1.label }.map { entry in
            "\(entry.label): " + (entry.key.map(isSecret) == true ? redacted(entry.value) : render(entry.value))
        }
        return "{" + rendered.joined(separator: ", ") + "}"
    }

    /// What stands in for the secret `value`: its length only (UTF-8 bytes for text, the type for
    /// anything else).
    public static func redacted(_ value: KeychainValue) -> String {
        switch value {
        case .data(let bytes): redacted(byteCount: bytes.count)
        case .string(let text): redacted(byteCount: text.utf8.count)
        default: "<redacted \(value.typeName)>"
        }
    }
}
