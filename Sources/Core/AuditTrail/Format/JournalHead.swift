/// The journal's end as a small file of its own, `head`: `last sequence (8) ‖ its chain value (16) ‖ its head secret
/// (16)`, rewritten after every record. Records cut from the end of the last segment would leave a shorter chain that
/// still verifies: the head says how far the journal went. Its secret is the one sealed inside that record, which
/// nobody without the sealing key can read, so a head made up to name an earlier record does not match it.
struct JournalHead: Sendable, Equatable {
    static let size = 8 + ChainValue.size + RecordFrame.headSecretSize

    /// The last record written (0 before any), the chain value after it and the secret sealed in it.
    let lastSequence: UInt64
    let chain: ChainValue
    let secret: [UInt8]

    /// The head of a journal with no record yet.
    static let empty = JournalHead(lastSequence: 0, chain: .origin, secret: RecordFrame.noHeadSecret)

    var bytes: [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.size)
        BigEndian.append(lastSequence, to: &bytes)
        bytes.append(contentsOf: chain.bytes)
        bytes.append(contentsOf: secret)
        return bytes
    }

    static func read(_ bytes: [UInt8]) -> JournalHead? {
        guard bytes.count == size else { return nil }
        return JournalHead(
            lastSequence: BigEndian.uint64(bytes[0..<8]), chain: ChainValue(bytes: Array(bytes[8..<8 + ChainValue.size])),
            secret: Array(bytes[(8 + ChainValue.size)...]))
    }
}
