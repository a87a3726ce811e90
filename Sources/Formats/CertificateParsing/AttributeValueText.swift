import Foundation

/// The text of a name attribute's value, as Apple's `copyDERThingContentDescription` makes it for subject
/// summaries, common names and e-mail addresses (`OSX/sec/Security/SecCertificate.c`). Pure.
///
/// - `PrintableString`, `IA5String`: ASCII; `UTF8String`, `GeneralString`, `UniversalString`: UTF-8 (Apple reads
///   `UniversalString` as UTF-8 too); `TeletexString`, `VideotexString`, `VisibleString`: ISO Latin-1;
///   `BMPString`: UTF-16, big-endian unless a byte-order mark says otherwise.
/// - One trailing zero byte is dropped, except from a `BMPString`.
/// - Bytes that are not text in their encoding are shown as upper-case hex pairs separated by spaces.
/// - `INTEGER` and `BOOLEAN`: decimal when 1 to 8 bytes long, hex otherwise.
/// - Other types (Apple shows a localized "Sequence; 5 bytes; …" kind of text for them) give nil here.
enum AttributeValueText {
    static func text(tag: UInt8, content: [UInt8]) -> String? {
        switch tag {
        case 0x13, 0x16: return string(content, .ascii)
        case 0x0C, 0x1B, 0x1C: return string(content, .utf8)
        case 0x14, 0x15, 0x1A: return string(content, .isoLatin1)
        case 0x1E: return string(content, .utf16BigEndian)
        case 0x02, 0x01:
            guard (1...8).contains(content.count) else { return hex(content) }
            return String(content.reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
        default: return nil
        }
    }

    private static func string(_ content: [UInt8], _ encoding: String.Encoding) -> String {
        var bytes = content[...]
        if encoding != .utf16BigEndian, bytes.last == 0 { bytes = bytes.dropLast() }
        if encoding == .utf16BigEndian {
            if bytes.starts(with: [0xFF, 0xFE]) {
                if let text = String(bytes: bytes.dropFirst(2), encoding: .utf16LittleEndian) { return text }
            } else if let text = String(bytes: bytes.starts(with: [0xFE, 0xFF]) ? bytes.dropFirst(2) : bytes, encoding: encoding) {
                return text
            }
        } else if encoding == .ascii {
            if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        } else if let text = String(bytes: bytes, encoding: encoding) {
            return text
        }
        return hex(content)
    }

    /// Apple's `copyHexDescription`: `"0A 1B 2C"`.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined(separator: " ")
    }
}
