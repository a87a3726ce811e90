import Crypto

/// The journal's ends as a small file of its own, `head`: `first kept sequence (8) ‖ last sequence (8) ‖ its chain
/// value (32) ‖ MAC (32)`, rewritten after every record. Records cut from the end of the last segment would leave a
/// shorter chain that still verifies, and an oldest segment removed would look like rotation: the head says how far
/// the journal went and where rotation left it.
struct JournalHead: Sendable, Equatable {
    static let size = 8 + 8 + ChainValue.size + 32

    /// The oldest record rotation kept, the last record written (0 before any) and the chain value after it.
    let firstKept: UInt64
    let lastSequence: UInt64
    let chain: ChainValue

    private var fields: [UInt8] { BigEndian.bytes(firstKept) + BigEndian.bytes(lastSequence) + chain.bytes }

    func bytes(keys: AuditKeys) -> [UInt8] { fields + ChainValue.tag("coffer audit head v1", fields, key: keys.chaining) }

    static func read(_ bytes: [UInt8], keys: AuditKeys) -> JournalHead? {
        guard bytes.count == size else { return nil }
        let head = JournalHead(
            firstKept: BigEndian.uint64(bytes[0..<8]), lastSequence: BigEndian.uint64(bytes[8..<16]),
            chain: ChainValue(bytes: Array(bytes[16..<16 + ChainValue.size])))
        guard Array(bytes[16 + ChainValue.size..<size]) == ChainValue.tag("coffer audit head v1", head.fields, key: keys.chaining) else { return nil }
        return head
    }
}
