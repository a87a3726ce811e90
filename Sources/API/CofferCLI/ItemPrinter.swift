import Foundation
import KeychainModel
import Query

/// Prints items the way macOS `security` does: the class, then one attribute per line.
enum ItemPrinter {
    /// The attribute block of one item.
    static func describe(itemClass: String, attributes: [String: KeychainValue]) -> String {
        var lines = ["class: \"\(itemClass)\"", "attributes:"]
        for code in attributes.keys.sorted() where code != QueryKey.valueData && code != QueryKey.valuePersistentRef {
            lines.append("    \"\(code)\"\(render(attributes[code]!))")
        }
        return lines.joined(separator: "\n")
    }

    /// A secret for printing: its UTF-8 text when it is valid and printable, else `0x` and hex.
    static func secretText(_ data: Data) -> String {
        if let text = String(data: data, encoding: .utf8), !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\t" }) {
            return text
        }
        return "0x" + Hexadecimal.text(data, uppercase: true)
    }

    private static func render(_ value: KeychainValue) -> String {
        switch value {
        case .string(let text): "<blob>=\"\(ControlCharacterEscaping.escaped(text))\""
        case .data(let data): "<blob>=\(quotedOrHex(data))"
        case .number(let number): "<sint32>=\(number)"
        case .double(let number): "<real>=\(number)"
        case .bool(let flag): "<sint32>=\(flag ? 1 : 0)"
        case .date(let date): "<timedate>=\(ISO8601DateFormatter().string(from: date))"
        case .accessControl(let control): "<accesscontrol>=\(control.protection.rawValue) flags 0x\(String(control.flags.rawValue, radix: 16))"
        case .null: "<null>"
        case .uuid(let uuid): "<uuid>=\(uuid.uuidString)"
        case .itemReference(let reference): "<ref class=\(reference.itemClass.rawValue)>"
        default: "<other>"
        }
    }

    /// An attribute's bytes: quoted text when they are UTF-8 with no control or format character but tabs; else
    /// `0x` and hex, so that no byte of them reaches the terminal as a control.
    private static func quotedOrHex(_ data: Data) -> String {
        if data.isEmpty { return "<NULL>" }
        guard let text = String(data: data, encoding: .utf8),
            !ControlCharacterEscaping.containsControlCharacters(text.replacingOccurrences(of: "\t", with: " "))
        else { return "0x" + Hexadecimal.text(data, uppercase: true) }
        return "\"\(text)\""
    }
}
