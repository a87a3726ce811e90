import Crypto

/// The start of each segment file: `"CAUD" ‖ version (1) ‖ segment number (4) ‖ first sequence (8) ‖ first sequence
/// kept (8) ‖ chain value before it (16) ‖ MAC (32)`. Once older segments are rotated away, the oldest kept header is
/// where verification starts, and its MAC shows it was written by the journal and not made up to hide what went
/// before; the newest header says which record rotation kept first, so an older segment removed outside rotation
/// shows.
struct SegmentHeader: Sendable, Equatable {
    static let magic = Array("CAUD".utf8)
    static let version: UInt8 = 2
    static let size = 4 + 1 + 4 + 8 + 8 + ChainValue.size + 32

    let number: UInt32
    let firstSequence: UInt64
    /// The oldest record kept once this segment was started (older segments past the count are removed then).
    let firstKept: UInt64
    let previous: ChainValue

    private var fields: [UInt8] {
        Self.magic + [Self.version] + BigEndian.bytes(number) + BigEndian.bytes(firstSequence) + BigEndian.bytes(firstKept) + previous.bytes
    }

    func bytes(keys: AuditKeys) -> [UInt8] { fields + ChainValue.tag(.segment, fields, keys: keys) }

    /// The header at the start of `bytes`, when it is one the journal wrote under `keys`.
    static func read(_ bytes: [UInt8], keys: AuditKeys) -> SegmentHeader? {
        guard bytes.count >= size, Array(bytes[0..<4]) == magic, bytes[4] == version else { return nil }
        let header = SegmentHeader(
            number: BigEndian.uint32(bytes[5..<9]), firstSequence: BigEndian.uint64(bytes[9..<17]), firstKept: BigEndian.uint64(bytes[17..<25]),
            previous: ChainValue(bytes: Array(bytes[25..<25 + ChainValue.size])))
        let tag = Array(bytes[25 + ChainValue.size..<size])
        guard tag == ChainValue.tag(.segment, header.fields, keys: keys) else { return nil }
        return header
    }
}
