import Foundation
import KeychainModel

/// Appends the protocol's primitives: big-endian integers, UInt32-length-prefixed bytes and UTF-8 text,
/// one-byte booleans. It counts values and checks lengths against the limits, so that what it writes is
/// always what the peer's ``WireReader`` accepts.
///
/// Every write copies contiguous bytes into one byte array that starts with room for a typical message;
/// ``payload()`` and ``frame()`` copy it out once and wipe it, since a request may hold a secret.
struct WireWriter {
    /// The room a writer starts with: most requests and answers fit.
    static let initialCapacity = 256

    private(set) var output: [UInt8] = {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(WireWriter.initialCapacity)
        return bytes
    }()
    let limits: ProtocolLimits
    private(set) var valueCount = 0

    init(limits: ProtocolLimits) { self.limits = limits }

    mutating func byte(_ value: UInt8) { withUnsafeBytes(of: value) { raw($0) } }

    mutating func bool(_ value: Bool) { byte(value ? 1 : 0) }

    mutating func uint32(_ value: UInt32) { withUnsafeBytes(of: value.bigEndian) { raw($0) } }

    mutating func uint64(_ value: UInt64) { withUnsafeBytes(of: value.bigEndian) { raw($0) } }

    mutating func int32(_ value: Int32) { uint32(UInt32(bitPattern: value)) }

    mutating func int64(_ value: Int64) { uint64(UInt64(bitPattern: value)) }

    /// The bytes as they are, with no length.
    mutating func raw(_ bytes: UnsafeRawBufferPointer) {
        output.append(contentsOf: bytes)
    }

    /// A UInt32 length, then the bytes.
    mutating func bytes(_ bytes: UnsafeRawBufferPointer) throws(ProtocolError) {
        try length(bytes.count)
        raw(bytes)
    }

    /// A UInt32 length, then the bytes.
    mutating func bytes(_ bytes: Data) throws(ProtocolError) {
        try length(bytes.count)
        bytes.withUnsafeBytes { raw($0) }
    }

    /// A UInt32 length, then the bytes.
    mutating func bytes(_ bytes: [UInt8]) throws(ProtocolError) {
        try length(bytes.count)
        bytes.withUnsafeBytes { raw($0) }
    }

    /// A UInt32 length, then a secret's bytes (the frame holding them is wiped by whoever sends it).
    mutating func secret(_ secret: SecretBytes) throws(ProtocolError) {
        try secret.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(ProtocolError) in try self.bytes(bytes) }
    }

    /// A UInt32 byte length, then the UTF-8 bytes.
    mutating func text(_ text: String) throws(ProtocolError) {
        var text = text
        try length(text.utf8.count)
        text.withUTF8 { raw(UnsafeRawBufferPointer($0)) }
    }

    /// An element count (UInt32).
    mutating func count(_ count: Int) throws(ProtocolError) {
        try length(count)
    }

    /// Counts one value against ``ProtocolLimits/maximumValueCount``.
    mutating func countValue() throws(ProtocolError) {
        valueCount += 1
        guard valueCount <= limits.maximumValueCount else {
            throw .malformedPayload(.tooManyValues(limit: limits.maximumValueCount))
        }
    }

    /// Counts the values another writer wrote (for bytes that will be appended later with ``raw(_:)``).
    mutating func countValues(of other: WireWriter) throws(ProtocolError) {
        valueCount += other.valueCount
        guard valueCount <= limits.maximumValueCount else {
            throw .malformedPayload(.tooManyValues(limit: limits.maximumValueCount))
        }
    }

    /// Checks that entering one more array or dictionary below `depth` stays within the limit.
    func checkNesting(below depth: Int) throws(ProtocolError) {
        guard depth < limits.maximumNestingDepth else {
            throw .malformedPayload(.nestingTooDeep(limit: limits.maximumNestingDepth))
        }
    }

    /// The finished payload; throws ``ProtocolError/oversized(length:limit:)`` beyond the payload limit.
    /// The writer is left empty and its bytes wiped.
    mutating func payload() throws(ProtocolError) -> Data {
        defer { wipe() }
        guard output.count <= limits.maximumPayloadLength else {
            throw .oversized(length: output.count, limit: limits.maximumPayloadLength)
        }
        return Data(output)
    }

    /// The finished payload in a frame (``FrameFormat``), ready to write; throws as ``payload()`` does.
    /// The writer is left empty and its bytes wiped.
    mutating func frame() throws(ProtocolError) -> Data {
        defer { wipe() }
        try FrameFormat.checkPayloadLength(output.count, maximumPayloadLength: limits.maximumPayloadLength)
        return output.withUnsafeBytes { FrameFormat.frame(checkedPayload: $0) }
    }

    private mutating func wipe() {
        output.zeroize()
        output.removeAll()
    }

    private mutating func length(_ value: Int) throws(ProtocolError) {
        let limit = limits.maximumPayloadLength
        guard value <= limit, output.count <= limit - value else {
            throw .oversized(length: output.count + min(value, Int.max - output.count), limit: limit)
        }
        uint32(UInt32(value))
    }
}
