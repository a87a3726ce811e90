/// Every kept segment read in order: the records that open and chain, and the first damage when there is one.
struct JournalWalk {
    private(set) var records: [AuditJournalRecord] = []
    private(set) var damage: AuditVerification?
    /// The first kept sequence number, the chain value after the last record, and before it.
    private(set) var firstSequence: UInt64 = 1
    private(set) var chain = ChainValue.origin
    private(set) var chainBeforeLast = ChainValue.origin
    /// The head secrets sealed in the last record and in the one before it.
    private(set) var lastSecret = RecordFrame.noHeadSecret
    private(set) var secretBeforeLast = RecordFrame.noHeadSecret
    /// The oldest record rotation kept, as the newest segment's header says.
    private(set) var firstKept: UInt64 = 1

    init(files: JournalFiles, keys: AuditKeys) throws(AuditJournalError) {
        let numbers = try files.segmentNumbers()
        var expected: UInt64?
        var previousNumber: UInt32?
        for number in numbers {
            let path = files.segmentPath(number)
            let bytes = try JournalFiles.read(path)
            guard let header = SegmentHeader.read(bytes, keys: keys) else {
                damage = .damaged(file: path, sequence: nil, reason: "the segment's header is missing or was changed")
                return
            }
            if let previousNumber, let expected {
                guard header.number == previousNumber + 1 else {
                    damage = .damaged(file: path, sequence: expected, reason: "segment \(previousNumber + 1) is missing")
                    return
                }
                guard header.firstSequence == expected, header.previous == chain else {
                    damage = .damaged(file: path, sequence: expected, reason: "the segment does not follow the one before it")
                    return
                }
            } else {
                firstSequence = header.firstSequence
                chain = header.previous
            }
            firstKept = header.firstKept
            var next = header.firstSequence
            var offset = SegmentHeader.size
            while let read = RecordFrame.read(bytes, at: offset) {
                guard case .success(let (frame, after)) = read else {
                    damage = .damaged(file: path, sequence: next, reason: "a record is cut short or its length was changed")
                    return
                }
                guard frame.sequence == next else {
                    damage = .damaged(
                        file: path, sequence: next,
                        reason: frame.sequence > next ? "records \(next)–\(frame.sequence - 1) are missing" : "record \(frame.sequence) is out of order")
                    return
                }
                guard let opened = frame.open(keys: keys, after: chain) else {
                    damage = .damaged(file: path, sequence: next, reason: "the record was changed, or does not follow the one before it")
                    return
                }
                chainBeforeLast = chain
                chain = frame.chain
                secretBeforeLast = lastSecret
                lastSecret = opened.headSecret
                records.append(AuditJournalRecord(sequence: frame.sequence, payload: opened.payload))
                next += 1
                offset = after
            }
            expected = next
            previousNumber = number
        }
    }
}
