import Foundation
import KeychainModel

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

    /// The DER bytes of this value. The working buffers are wiped before they are freed: the value may hold an
    /// item's secret (the `sha1` digest covers `v_Data`); the caller wipes the bytes it gets.
    public var encoded: Data {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        defer { output.zeroize() }
        append(to: &output)
        return Data(output)
    }

    /// Appends the value's element. A constructed value's content is written in place after a one-byte length,
    /// which is widened once its size is known (rarely: content of 128 bytes or more).
    private func append(to output: inout [UInt8]) {
        switch self {
        case .string(let text): Self.appendElement(tag: 0x0C, content: text.utf8, to: &output)
        case .data(let bytes): Self.appendElement(tag: 0x04, content: bytes, to: &output)
        case .integer(let value): Self.appendElement(tag: 0x02, content: Self.integerContent(value), to: &output)
        case .boolean(let flag): Self.appendElement(tag: 0x01, content: CollectionOfOne(flag ? 1 : 0), to: &output)
        case .date(let time): Self.appendElement(tag: 0x18, content: DERGeneralizedTime.bodyBytes(of: time), to: &output)
        case .null: Self.appendElement(tag: 0x05, content: EmptyCollection<UInt8>(), to: &output)
        case .array(let elements):
            let start = Self.openElement(tag: 0x30, in: &output)
            for element in elements { element.append(to: &output) }
            Self.closeElement(openedAt: start, in: &output)
        case .dictionary(let entries):
            var pairs: [[UInt8]] = []
            pairs.reserveCapacity(entries.count)
            for (key, value) in entries {
                // Room for the whole pair up front: a buffer that grew would free a copy of a secret unwiped.
                var pair: [UInt8] = []
                pair.reserveCapacity(key.utf8.count + value.contentRoom + 16)
                let start = Self.openElement(tag: 0x30, in: &pair)
                Self.appendElement(tag: 0x0C, content: key.utf8, to: &pair)
                value.append(to: &pair)
                Self.closeElement(openedAt: start, in: &pair)
                pairs.append(pair)
            }
            pairs.sort(by: Self.precedes)
            output.reserveCapacity(output.count + 10 + pairs.reduce(0) { $0 + $1.count })
            let start = Self.openElement(tag: 0x31, in: &output)
            for index in pairs.indices {
                output.append(contentsOf: pairs[index])
                pairs[index].zeroize()
            }
            Self.closeElement(openedAt: start, in: &output)
        }
    }

    /// Room for the content of a scalar, so that the buffer it is written to need not grow (an estimate for
    /// the others, whose content holds no secret of its own size).
    private var contentRoom: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .data(let bytes): bytes.count
        default: 48
        }
    }

    /// Apple's `CFDataCompareDERData` on encoded pairs: bytewise over the common length, then the shorter first.
    private static func precedes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        let common = min(left.count, right.count)
        let order = left.withUnsafeBytes { left in right.withUnsafeBytes { right in memcmp(left.baseAddress!, right.baseAddress!, common) } }
        return order != 0 ? order < 0 : left.count < right.count
    }

    /// The shortest two's-complement bytes of `value`, big-endian (`der_number.c`'s `bytes_when_encoded`).
    static func integerContent(_ value: Int64) -> ArraySlice<UInt8> {
        let bytes = withUnsafeBytes(of: value.bigEndian) { Array($0) }
        // Drop a leading 0x00 or 0xFF while the next byte keeps the sign bit the same.
        var first = 0
        while first < bytes.count - 1,
            (bytes[first] == 0x00 && bytes[first + 1] & 0x80 == 0) || (bytes[first] == 0xFF && bytes[first + 1] & 0x80 != 0)
        {
            first += 1
        }
        return bytes[first...]
    }

    /// Tag, DER length (short form below 128, else 0x80 | byte count and the big-endian length), content.
    private static func appendElement(tag: UInt8, content: some Collection<UInt8>, to output: inout [UInt8]) {
        output.append(tag)
        appendLength(content.count, to: &output)
        output.append(contentsOf: content)
    }

    private static func appendLength(_ length: Int, to output: inout [UInt8]) {
        guard length >= 0x80 else { return output.append(UInt8(length)) }
        let byteCount = (Int.bitWidth - length.leadingZeroBitCount + 7) / 8
        output.append(0x80 | UInt8(byteCount))
        for index in stride(from: byteCount - 1, through: 0, by: -1) { output.append(UInt8(truncatingIfNeeded: length >> (8 * index))) }
    }

    /// Starts a constructed element: its tag and a one-byte length to be set by ``closeElement(openedAt:in:)``.
    private static func openElement(tag: UInt8, in output: inout [UInt8]) -> Int {
        output.append(tag)
        output.append(0)
        return output.count
    }

    /// Sets the length of the element whose content starts at `contentStart`, widening it when long.
    private static func closeElement(openedAt contentStart: Int, in output: inout [UInt8]) {
        let length = output.count - contentStart
        if length < 0x80 {
            output[contentStart - 1] = UInt8(length)
        } else {
            var lengthBytes: [UInt8] = []
            appendLength(length, to: &lengthBytes)
            output.replaceSubrange((contentStart - 1)..<contentStart, with: lengthBytes)
        }
    }
}
