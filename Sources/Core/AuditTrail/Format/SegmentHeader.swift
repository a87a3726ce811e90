import Crypto

/// The start of each segment file: `"CAUD" ‖ version (1) ‖ segment number (4) ‖ first sequence (8) ‖ chain value
/// before it (32) ‖ MAC (32)`. Once older segments are rotated away, the oldest kept header is where verification
/// starts, and its MAC shows it was written by the journal and not made up to hide what went before.
struct SegmentHeader: Sendable, Equatable {
    static let magic = Array("CAUD".utf8)
    static let version: UInt8 = 1
    static let size = 4 + 1 + 4 + 8 + ChainValue.size + 32

    let number: UInt32
    let firstSequence: UInt64
    let previous: ChainValue

    private var fields: [UInt8] { Self.magic + [Self.version] + BigEndian.bytes(number) + BigEndian.bytes(firstSequence) + previous.bytes }

    func bytes(keys: AuditKeys) -> [UInt8] { fields + ChainValue.tag("coffer audit segment v1", fields, key: keys.chaining) }

    /// The header at the start of `bytes`, when it is one the journal wrote under `keys`.
    static func read(_ bytes: [UInt8], keys: AuditKeys) -> SegmentHeader? {
        guard bytes.count >= size, Array(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        let header = SegmentHeader(
            number: BigEndian.uint32(bytes[5..<9]), firstSequence: BigEndian.uint64(bytes[9..<17]),
            previous: ChainValue(bytes: Array(bytes[17..<17 + ChainValue.size])))
        let tag = Array(bytes[17 + ChainValue.size..<size])
        guard tag == ChainValue.tag("coffer audit segment v1", header.fields, key: keys.chaining) else { return nil }
        return header
    }
}
