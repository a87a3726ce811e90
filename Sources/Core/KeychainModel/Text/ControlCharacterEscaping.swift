/// Text from outside — a program's path, an item's label, a key's comment — made safe to show on a terminal or
/// in a prompt: control characters (C0, DEL, C1), which could start a new line or a terminal escape sequence,
/// and format characters (bidirectional overrides, zero-width joiners), which could reorder or hide what is
/// shown, are written as escapes instead. In text that needs escaping a backslash is doubled too, so that an
/// escape reads one way only; text with nothing to escape is returned as it is, backslashes included.
///
/// `"Firefox\nSync"` is shown as `Firefox\nSync`, `"\u{1B}[2J"` as `\x1B[2J`, `"\u{202E}"` as `\u{202E}`.
public enum ControlCharacterEscaping {
    /// `text` with every control and format character, and then every backslash, escaped; `text` itself when it
    /// holds no control or format character.
    public static func escaped(_ text: String) -> String {
        guard containsControlCharacters(text) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.append(scalar)
                continue
            }
            result.append(contentsOf: escape(of: scalar).unicodeScalars)
        }
        return String(result)
    }

    /// Whether `text` holds a control or format character (which ``escaped(_:)`` would escape).
    public static func containsControlCharacters(_ text: String) -> Bool {
        text.unicodeScalars.contains { isControlOrFormat($0) }
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || isControlOrFormat(scalar)
    }

    private static func isControlOrFormat(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static func escape(of scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            let digits = String(scalar.value, radix: 16, uppercase: true)
            if scalar.value < 0x100 { return "\\x" + String(repeating: "0", count: 2 - digits.count) + digits }
            return "\\u{" + digits + "}"
        }
    }
}
