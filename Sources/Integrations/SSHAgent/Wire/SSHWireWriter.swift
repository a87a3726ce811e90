import Foundation

/// Writes SSH's wire types (RFC 4251 §5).
public struct SSHWireWriter: Sendable {
    /// What has been written.
    public private(set) var bytes = Data()

    /// An empty writer.
    public init() {}

    /// One `byte`.
    public mutating func byte(_ value: UInt8) { bytes.append(value) }

    /// A `boolean`.
    public mutating func boolean(_ value: Bool) { bytes.append(value ? 1 : 0) }

    /// A `uint32`, big-endian.
    public mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// A `string`: its length as a `uint32`, then the bytes.
    public mutating func string(_ value: Data) {
        uint32(UInt32(value.count))
        bytes.append(value)
    }

    /// A `string` of UTF-8 text.
    public mutating func text(_ value: String) { string(Data(value.utf8)) }

    /// An `mpint` holding the non-negative big-endian number `magnitude`: leading zero bytes dropped, one zero
    /// byte added when the top bit is set (so that it does not read as negative); zero is the empty string.
    public mutating func mpint(_ magnitude: Data) {
        var significant = Data(magnitude.drop(while: { $0 == 0 }))
        if let first = significant.first, first & 0x80 != 0 { significant.insert(0, at: 0) }
        string(significant)
    }
}
