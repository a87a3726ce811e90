import Foundation
import KeychainModel

/// Reads what ``WireWriter`` writes. Every read is bounds-checked, every count is checked against the
/// bytes that remain and the value budget before anything is allocated, and every failure is a
/// ``ProtocolError/malformedPayload(_:)``.
///
/// It reads the payload's bytes in place, neither copying them (a request may hold a secret) nor going through
/// `Data` for each byte; so a reader is made only for the body of ``read(_:limits:_:)`` and must not outlive it.
struct WireReader {
    let limits: ProtocolLimits
    private let input: UnsafeRawBufferPointer
    private var offset = 0
    private var valuesLeft: Int

    private init(_ input: UnsafeRawBufferPointer, limits: ProtocolLimits) {
        self.input = input
        self.limits = limits
        valuesLeft = limits.maximumValueCount
    }

    /// Runs `body` with a reader of `payload`'s bytes.
    static func read<Result>(
        _ payload: Data, limits: ProtocolLimits, _ body: (inout WireReader) throws(ProtocolError) -> Result
    ) throws(ProtocolError) -> Result {
        let outcome = payload.withUnsafeBytes { bytes -> Swift.Result<Result, ProtocolError> in
            var reader = WireReader(bytes, limits: limits)
            do throws(ProtocolError) {
                return .success(try body(&reader))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// The number of unread bytes.
    var remaining: Int { input.count - offset }

    /// The current position, for ``bytes(in:)``.
    var position: Int { offset }

    mutating func byte() throws(ProtocolError) -> UInt8 {
        guard remaining >= 1 else { throw .malformedPayload(.unexpectedEnd) }
        defer { offset += 1 }
        return input[offset]
    }

    mutating func bool(_ field: String) throws(ProtocolError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw .malformedPayload(.invalidField(field))
        }
    }

    mutating func uint32() throws(ProtocolError) -> UInt32 { UInt32(try integer(width: 4)) }

    mutating func uint64() throws(ProtocolError) -> UInt64 { try integer(width: 8) }

    mutating func int32() throws(ProtocolError) -> Int32 { Int32(bitPattern: try uint32()) }

    mutating func int64() throws(ProtocolError) -> Int64 { Int64(bitPattern: try uint64()) }

    /// The next `length` bytes' positions, checked against the end.
    mutating func take(_ length: Int) throws(ProtocolError) -> Range<Int> {
        guard length >= 0, remaining >= length else { throw .malformedPayload(.unexpectedEnd) }
        defer { offset += length }
        return offset..<(offset + length)
    }

    /// The bytes at positions returned by ``take(_:)`` or ``position``.
    func bytes(in range: Range<Int>) -> Data { Data(UnsafeRawBufferPointer(rebasing: input[range])) }

    /// A UInt32 length, then that many bytes.
    mutating func lengthPrefixed() throws(ProtocolError) -> Range<Int> {
        try take(Int(try uint32()))
    }

    /// A UInt32 length, then that many bytes, copied.
    mutating func data() throws(ProtocolError) -> Data {
        bytes(in: try lengthPrefixed())
    }

    /// A UInt32 length, then a secret's bytes, copied straight from the payload into zeroizing storage (the
    /// payload itself is wiped by whoever received it).
    mutating func secret() throws(ProtocolError) -> SecretBytes {
        SecretBytes(copying: UnsafeRawBufferPointer(rebasing: input[try lengthPrefixed()]))
    }

    /// A UInt32 length, then that many bytes of UTF-8.
    mutating func text() throws(ProtocolError) -> String {
        try text(in: try lengthPrefixed())
    }

    /// The UTF-8 text at `range`.
    func text(in range: Range<Int>) throws(ProtocolError) -> String {
        let utf8 = UnsafeRawBufferPointer(rebasing: input[range]).assumingMemoryBound(to: UInt8.self)
        // Keys and most values are ASCII, always valid: decoded without the generic validation.
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw .malformedPayload(.invalidUTF8) }
        return text
    }

    /// Whether the bytes at `first` sort strictly before those at `second` (byte by byte, a prefix first).
    func precedes(_ first: Range<Int>, _ second: Range<Int>) -> Bool {
        WireOrder.precedes(UnsafeRawBufferPointer(rebasing: input[first]), UnsafeRawBufferPointer(rebasing: input[second]))
    }

    /// An element count (UInt32), refused when the remaining bytes cannot hold that many elements of at
    /// least `minimumElementSize` bytes, or the value budget cannot hold that many values.
    mutating func count(minimumElementSize: Int) throws(ProtocolError) -> Int {
        let count = Int(try uint32())
        guard count <= remaining / minimumElementSize else {
            throw .malformedPayload(.countExceedsRemainingBytes(count: count))
        }
        guard count <= valuesLeft else { throw .malformedPayload(.tooManyValues(limit: limits.maximumValueCount)) }
        return count
    }

    /// Counts one value against ``ProtocolLimits/maximumValueCount``.
    mutating func countValue() throws(ProtocolError) {
        guard valuesLeft > 0 else { throw .malformedPayload(.tooManyValues(limit: limits.maximumValueCount)) }
        valuesLeft -= 1
    }

    /// Checks that entering one more array or dictionary below `depth` stays within the limit.
    func checkNesting(below depth: Int) throws(ProtocolError) {
        guard depth < limits.maximumNestingDepth else {
            throw .malformedPayload(.nestingTooDeep(limit: limits.maximumNestingDepth))
        }
    }

    /// Throws ``MalformedPayload/trailingBytes(count:)`` unless every byte was read.
    func finish() throws(ProtocolError) {
        guard remaining == 0 else { throw .malformedPayload(.trailingBytes(count: remaining)) }
    }

    private mutating func integer(width: Int) throws(ProtocolError) -> UInt64 {
        var value: UInt64 = 0
        for index in try take(width) { value = value << 8 | UInt64(input[index]) }
        return value
    }
}
