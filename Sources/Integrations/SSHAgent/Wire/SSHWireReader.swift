import Foundation

/// Reads SSH's wire types (RFC 4251 §5) from a message, front to back, checking every length against what is
/// left: a length past the end is an ``SSHWireError``, never a crash or an allocation of the announced size.
public struct SSHWireReader: Sendable {
    private let bytes: Data
    private var offset: Int

    /// A reader at the start of `bytes`.
    public init(_ bytes: Data) {
        self.bytes = Data(bytes)
        offset = self.bytes.startIndex
    }

    /// How many bytes are left.
    public var remaining: Int { bytes.endIndex - offset }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { remaining == 0 }

    /// How many bytes have been read.
    public var consumed: Int { offset - bytes.startIndex }

    /// One `byte`.
    public mutating func byte() throws(SSHWireError) -> UInt8 {
        guard remaining >= 1 else { throw SSHWireError("a byte is missing") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A `boolean`: one byte, any non-zero value true.
    public mutating func boolean() throws(SSHWireError) -> Bool { try byte() != 0 }

    /// A `uint32`, big-endian.
    public mutating func uint32() throws(SSHWireError) -> UInt32 {
        guard remaining >= 4 else { throw SSHWireError("a uint32 is cut short") }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) { value = value << 8 | UInt32(bytes[index]) }
        offset += 4
        return value
    }

    /// A `uint64`, big-endian.
    public mutating func uint64() throws(SSHWireError) -> UInt64 {
        let high = try uint32()
        return UInt64(high) << 32 | UInt64(try uint32())
    }

    /// A `string`: a `uint32` length, then that many bytes.
    public mutating func string() throws(SSHWireError) -> Data {
        let length = Int(try uint32())
        guard length <= remaining else { throw SSHWireError("a string of \(length) bytes runs past the message") }
        defer { offset += length }
        return bytes[offset..<(offset + length)]
    }

    /// A `string` holding UTF-8 text (names of algorithms, extensions and comments).
    public mutating func text() throws(SSHWireError) -> String {
        let value = try string()
        guard let text = String(data: value, encoding: .utf8) else { throw SSHWireError("a name is not UTF-8") }
        return text
    }

    /// An `mpint` that must not be negative, as its big-endian magnitude without leading zero bytes.
    public mutating func positiveMPInt() throws(SSHWireError) -> Data {
        let value = try string()
        if let first = value.first, first & 0x80 != 0 { throw SSHWireError("an mpint is negative") }
        return Data(value.drop(while: { $0 == 0 }))
    }

    /// The bytes left, all of them.
    public mutating func rest() -> Data {
        defer { offset = bytes.endIndex }
        return bytes[offset...]
    }

    /// Throws unless every byte has been read: a message with trailing bytes is malformed.
    public func expectEnd() throws(SSHWireError) {
        guard isAtEnd else { throw SSHWireError("\(remaining) unexpected bytes at the end of a message") }
    }
}
