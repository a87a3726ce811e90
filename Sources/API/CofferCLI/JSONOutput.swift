import Foundation
import KeychainModel
import Query

/// `--json` output for scripts: one JSON value on standard output, keys sorted, attributes under Apple's codes
/// (`acct`, `svce`, `labl`…). Text stays text (JSON escapes control characters itself), bytes that are not UTF-8 text
/// are `{"base64": "…"}`, dates are ISO 8601; a secret appears only when the command was asked for it.
enum JSONOutput {
    /// The JSON form of one attribute value.
    static func value(_ value: KeychainValue) -> Any {
        switch value {
        case .string(let text): text
        case .data(let data): String(data: data, encoding: .utf8).map { $0 as Any } ?? ["base64": data.base64EncodedString()]
        case .number(let number): number
        case .double(let number): number
        case .bool(let flag): flag
        case .date(let date): ISO8601DateFormatter().string(from: date)
        case .null: NSNull()
        case .uuid(let uuid): uuid.uuidString
        case .accessControl(let control): ["protection": control.protection.rawValue, "flags": control.flags.rawValue]
        case .itemReference(let reference): ["itemClass": reference.itemClass.rawValue]
        default: NSNull()
        }
    }

    /// One item: its class and attributes, without its secret or persistent reference unless `withSecret`.
    static func item(itemClass: String, attributes: [String: KeychainValue], withSecret: Bool = false) -> [String: Any] {
        var fields: [String: Any] = [:]
        for (code, attribute) in attributes where code != QueryKey.valuePersistentRef && (withSecret || code != QueryKey.valueData) {
            fields[code] = value(attribute)
        }
        return ["class": itemClass, "attributes": fields]
    }

    /// Prints `object` as one line of JSON.
    static func print(_ object: Any) throws {
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
