/// Bytes as hexadecimal digits, two per byte, and back: fingerprints and hashes in the CLI's output and in logs,
/// executable hashes in the program registry, group names derived from a hash.
public enum Hexadecimal {
    /// The digits of `bytes`, two per byte, lowercase unless `uppercase`, with `separator` between bytes.
    public static func text(_ bytes: some Sequence<UInt8>, uppercase: Bool = false, separator: String = "") -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        let separator = Array(separator.utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * (2 + separator.count))
        for byte in bytes {
            if !text.isEmpty { text.append(contentsOf: separator) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` spells, two digits per byte, in either case; nil when it is empty, has an odd number of
    /// digits, or holds anything but digits.
    public static func bytes(_ text: some StringProtocol) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(ofDigit: digits[index]), let low = value(ofDigit: digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// The value of one hexadecimal digit (an ASCII byte, either case), or nil for any other byte.
    public static func value(ofDigit digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
