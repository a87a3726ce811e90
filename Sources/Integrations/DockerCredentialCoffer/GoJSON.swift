import Foundation

/// JSON written as Go's `encoding/json` writes it (docker reads the helper's output with it): keys in the
/// given order, strings escaped as Go escapes them (`<`, `>`, `&`, U+2028 and U+2029 as `\u` escapes), and a
/// newline after the value, as `json.Encoder` adds.
enum GoJSON {
    /// An object of string values, in `entries`' order.
    static func object(_ entries: [(String, String)]) -> String {
        "{" + entries.map { "\(string($0.0)):\(string($0.1))" }.joined(separator: ",") + "}\n"
    }

    /// A string literal.
    static func string(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}": out += String(format: "\\u%04x", scalar.value)
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
