import Foundation
import KeychainModel

/// Appends big-endian integers and length-prefixed bytes.
struct BinaryWriter {
    private(set) var output = Data()

    mutating func byte(_ value: UInt8) { output.append(value) }

    mutating func uint16(_ value: UInt16) { withUnsafeBytes(of: value.bigEndian) { output.append(contentsOf: $0) } }

    mutating func uint32(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { output.append(contentsOf: $0) } }

    mutating func uint64(_ value: UInt64) { withUnsafeBytes(of: value.bigEndian) { output.append(contentsOf: $0) } }

    mutating func bytes32(_ bytes: Data) {
        uint32(UInt32(bytes.count))
        output.append(bytes)
    }

    /// UTF-8 text with a two-byte length (attribute codes).
    mutating func text16(_ text: String) {
        let bytes = Data(text.utf8)
        uint16(UInt16(bytes.count))
        output.append(bytes)
    }

    /// UTF-8 text with a one-byte length (protection class strings).
    mutating func text8(_ text: String) {
        let bytes = Data(text.utf8)
        byte(UInt8(bytes.count))
        output.append(bytes)
    }
}

/// Reads what ``BinaryWriter`` writes; every read is bounds-checked and throws
/// ``KeychainStatus/decode`` when the input is too short.
struct BinaryReader {
    private let input: [UInt8]
    private var position = 0

    init(_ data: Data) { input = [UInt8](data) }

    var isAtEnd: Bool { position == input.count }

    mutating func byte() throws(KeychainStatus) -> UInt8 { UInt8(try integer(width: 1)) }

    mutating func uint16() throws(KeychainStatus) -> UInt16 { UInt16(try integer(width: 2)) }

    mutating func uint32() throws(KeychainStatus) -> UInt32 { UInt32(try integer(width: 4)) }

    mutating func uint64() throws(KeychainStatus) -> UInt64 { try integer(width: 8) }

    mutating func bytes32() throws(KeychainStatus) -> Data { Data(try take(Int(try uint32()))) }

    /// UTF-8 text with a four-byte length (string values); invalid UTF-8 is ``KeychainStatus/decode``.
    mutating func text32() throws(KeychainStatus) -> String { try utf8(try take(Int(try uint32()))) }

    mutating func text16() throws(KeychainStatus) -> String { try utf8(try take(Int(try uint16()))) }

    mutating func text8() throws(KeychainStatus) -> String { try utf8(try take(Int(try byte()))) }

    private mutating func integer(width: Int) throws(KeychainStatus) -> UInt64 {
        guard input.count - position >= width else { throw .decode }
        var value: UInt64 = 0
        for index in position..<(position + width) { value = value << 8 | UInt64(input[index]) }
        position += width
        return value
    }

    private mutating func take(_ length: Int) throws(KeychainStatus) -> ArraySlice<UInt8> {
        guard length >= 0, input.count - position >= length else { throw .decode }
        defer { position += length }
        return input[position..<(position + length)]
    }

    private func utf8(_ bytes: ArraySlice<UInt8>) throws(KeychainStatus) -> String {
        let text = bytes.withUnsafeBufferPointer { buffer -> String? in
            // ASCII (every attribute code, most values) is valid UTF-8 as it stands; `String(validating:)`
            // is generic and looks up type metadata on every call.
            if buffer.allSatisfy({ $0 < 0x80 }) { return String(decoding: buffer, as: UTF8.self) }
            return String(validating: buffer, as: UTF8.self)
        }
        guard let text else { throw .decode }
        return text
    }
}
