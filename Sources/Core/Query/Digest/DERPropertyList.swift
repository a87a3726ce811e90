import Foundation

/// A property-list value as Apple's DER property-list encoder writes it (reference §5.7; Apple's
/// `OSX/utilities/der_plist.c` and the `der_*.c` files beside it).
///
/// Apple uses this encoding for the item blob, the `sha1` and primary-key digests and ACLs; Coffer needs it
/// for the `sha1` digest (§5.6), where the bytes must be Apple's exactly.
public enum DERPropertyList: Sendable, Hashable {
    /// `CFString`: UTF8String (tag 0x0C).
    case string(String)
    /// `CFData`: OCTET STRING (tag 0x04).
    case data(Data)
    /// `CFNumber`: INTEGER (tag 0x02), the value taken as a `long long` in its shortest two's-complement form.
    case integer(Int64)
    /// `CFBoolean`: BOOLEAN (tag 0x01) with content byte 1 or 0 (not DER's 0xFF: Apple writes the C value).
    case boolean(Bool)
    /// `CFDate`, as its `CFAbsoluteTime`: GeneralizedTime (tag 0x18), see ``DERGeneralizedTime``.
    case date(Double)
    /// `CFNull`: NULL (tag 0x05).
    case null
    /// `CFArray`: SEQUENCE (tag 0x30) of the elements in order.
    case array([DERPropertyList])
    /// `CFDictionary` with string keys: SET (tag 0x31) of SEQUENCE {key, value}, the encoded pairs sorted
    /// by their bytes (`memcmp`, a shorter prefix first), as `der_encode_dictionary` sorts them.
    case dictionary([String: DERPropertyList])

    /// The DER bytes of this value.
    public var encoded: Data {
        var output = Data()
        append(to: &output)
        return output
    }

    private func append(to output: inout Data) {
        switch self {
        case .string(let text): DERPropertyList.appendElement(tag: 0x0C, content: Data(text.utf8), to: &output)
        case .data(let bytes): DERPropertyList.appendElement(tag: 0x04, content: bytes, to: &output)
        case .integer(let value): DERPropertyList.appendElement(tag: 0x02, content: Self.integerContent(value), to: &output)
        case .boolean(let flag): DERPropertyList.appendElement(tag: 0x01, content: Data([flag ? 1 : 0]), to: &output)
        case .date(let time):
            DERPropertyList.appendElement(tag: 0x18, content: DERGeneralizedTime.body(of: time), to: &output)
        case .null: DERPropertyList.appendElement(tag: 0x05, content: Data(), to: &output)
        case .array(let elements):
            var content = Data()
            for element in elements { element.append(to: &content) }
            DERPropertyList.appendElement(tag: 0x30, content: content, to: &output)
        case .dictionary(let entries):
            let pairs = entries.map { key, value in
                var pair = Data()
                DERPropertyList.string(key).append(to: &pair)
                value.append(to: &pair)
                return DERPropertyList.element(tag: 0x30, content: pair)
            }
            var content = Data()
            for pair in pairs.sorted(by: Self.precedes) { content.append(pair) }
            DERPropertyList.appendElement(tag: 0x31, content: content, to: &output)
        }
    }

    /// Apple's `CFDataCompareDERData`: bytewise over the common length, then the shorter first.
    static func precedes(_ left: Data, _ right: Data) -> Bool {
        left.lexicographicallyPrecedes(right)
    }

    /// The shortest two's-complement bytes of `value`, big-endian (`der_number.c`'s `bytes_when_encoded`).
    static func integerContent(_ value: Int64) -> Data {
        var bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        // Drop a leading 0x00 or 0xFF while the next byte keeps the sign bit the same.
        while bytes.count > 1,
            (bytes[0] == 0x00 && bytes[1] & 0x80 == 0) || (bytes[0] == 0xFF && bytes[1] & 0x80 != 0)
        {
            bytes.removeFirst()
        }
        return Data(bytes)
    }

    private static func element(tag: UInt8, content: Data) -> Data {
        var output = Data()
        appendElement(tag: tag, content: content, to: &output)
        return output
    }

    /// Tag, DER length (short form below 128, else 0x80 | byte count and the big-endian length), content.
    private static func appendElement(tag: UInt8, content: Data, to output: inout Data) {
        output.append(tag)
        let length = content.count
        if length < 0x80 {
            output.append(UInt8(length))
        } else {
            var lengthBytes: [UInt8] = []
            var remaining = length
            while remaining > 0 {
                lengthBytes.insert(UInt8(remaining & 0xFF), at: 0)
                remaining >>= 8
            }
            output.append(0x80 | UInt8(lengthBytes.count))
            output.append(contentsOf: lengthBytes)
        }
        output.append(content)
    }
}
