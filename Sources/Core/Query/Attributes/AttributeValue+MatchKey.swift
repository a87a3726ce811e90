import Foundation

extension AttributeValue {
    /// Canonical bytes for exact, type-aware equality (§10.1); equal keys mean Apple would match.
    ///
    /// Strings and data share one tag (text compares as its UTF-8 bytes, like SQLite compares TEXT), numbers
    /// compare by value, dates by their exact `CFAbsoluteTime`. Attributes whose Apple column compares bytes
    /// (Blob and Data kinds, hashed columns) must use ``AttributeDescriptor/matchKey(of:)`` instead, which
    /// also reduces numbers to their four `copyData` bytes. The storage layer keys its blind indexes with
    /// these bytes, so they must never change for a given value.
    public var matchKey: Data {
        switch self {
        case .string(let text): Self.tagged(MatchTag.bytes, text)
        case .data(let bytes): bytes.withUnsafeBytes { Self.tagged(MatchTag.bytes, $0) }
        case .number(let integer): Self.tagged(MatchTag.number, Self.bigEndian(UInt64(bitPattern: integer)))
        case .date(let moment): Self.tagged(MatchTag.date, Self.bigEndian(Self.absoluteTimeBits(moment)))
        case .accessControl(let control):
            Self.tagged(
                MatchTag.accessControl,
                Data(control.protection.rawValue.utf8) + Self.bigEndian(control.flags.rawValue))
        }
    }

    /// The key for attributes compared by their `copyData` bytes: UTF-8 for text, raw data, and four
    /// little-endian bytes for numbers.
    var byteMatchKey: Data {
        switch self {
        case .number(let integer): Self.tagged(MatchTag.bytes, Self.littleEndianInt32(integer))
        default: matchKey
        }
    }

    /// One-byte prefixes that keep values Apple would never consider equal apart.
    private enum MatchTag {
        static let bytes: UInt8 = 0x01
        static let number: UInt8 = 0x02
        static let date: UInt8 = 0x03
        static let accessControl: UInt8 = 0x04
    }

    private static func tagged(_ tag: UInt8, _ payload: Data) -> Data {
        payload.withUnsafeBytes { tagged(tag, $0) }
    }

    /// Text (most filters, every access group) goes from its UTF-8 storage into the key in one allocation.
    private static func tagged(_ tag: UInt8, _ text: String) -> Data {
        var text = text
        return text.withUTF8 { tagged(tag, UnsafeRawBufferPointer($0)) }
    }

    private static func tagged(_ tag: UInt8, _ payload: UnsafeRawBufferPointer) -> Data {
        var key = Data(count: 1 + payload.count)
        key.withUnsafeMutableBytes { key in
            key[0] = tag
            UnsafeMutableRawBufferPointer(rebasing: key[1...]).copyMemory(from: payload)
        }
        return key
    }

    /// The bit pattern of the date's `CFAbsoluteTime`, with -0 folded into +0 so equal times give equal bytes.
    static func absoluteTimeBits(_ moment: Date) -> UInt64 {
        let seconds = moment.timeIntervalSinceReferenceDate
        return (seconds == 0 ? 0.0 : seconds).bitPattern
    }

    static func bigEndian(_ value: UInt64) -> Data {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }
    }
}
