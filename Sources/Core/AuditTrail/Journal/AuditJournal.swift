import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A keychain's audit journal: records sealed one by one with AES-256-GCM and chained by their tags (each record's
/// additional data is the tag before it), appended to segment files that rotate at a size, the oldest removed past a
/// count.
///
/// Each ``append(_:)`` is one `write(2)` of the sealed record and one of the head, before it returns: a record
/// the journal acknowledged survives the process being killed. The journal knows nothing of what a record says;
/// the keychain seals its own encoding of each operation.
public final class AuditJournal: Sendable {
    /// How large the journal may grow: segments of `segmentBytes`, at most `segmentsKept` of them.
    public struct Limits: Sendable, Equatable {
        public var segmentBytes: Int
        public var segmentsKept: Int

        public init(segmentBytes: Int = 4 << 20, segmentsKept: Int = 8) {
            precondition(segmentBytes > SegmentHeader.size + RecordFrame.largest && segmentsKept >= 2)
            self.segmentBytes = segmentBytes
            self.segmentsKept = segmentsKept
        }
    }

    private struct Tail {
        /// The records' sealer, which keeps the key's schedule; nil when libcrypto could not make one.
        let sealer: RecordSealer?
        var segment: UInt32
        var descriptor: Int32
        var size: Int
        var lastSequence: UInt64
        var chain: ChainValue
        var head: Int32
    }

    private let files: JournalFiles
    private let keys: AuditKeys
    private let limits: Limits
    private let tail: Mutex<Tail>

    /// Opens the journal in `folder`, making it when there is none. When the head names the record the last segment
    /// ends with, the journal goes on from there; otherwise the last segment is read to its end: a record cut short by
    /// a crash, which was never acknowledged, is dropped; anything else that does not chain is an error (``verify()``
    /// says where).
    public init(folder: String, keys: AuditKeys, limits: Limits = Limits()) throws(AuditJournalError) {
        files = JournalFiles(folder: folder)
        self.keys = keys
        self.limits = limits
        try files.prepare()
        let head = open(files.headPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard head >= 0 else { throw .unwritable("cannot open \(files.headPath): \(JournalFiles.reason())") }
        do {
            tail = Mutex(try Self.openTail(files: files, keys: keys, head: head))
        } catch {
            close(head)
            throw error
        }
    }

    deinit {
        tail.withLock { tail in
            close(tail.descriptor)
            close(tail.head)
        }
    }

    /// Seals and appends `payload`; its sequence number.
    @discardableResult
    public func append(_ payload: [UInt8]) throws(AuditJournalError) -> UInt64 {
        try tail.withLock { (tail: inout Tail) throws(AuditJournalError) -> UInt64 in
            let sequence = tail.lastSequence + 1
            let random = RecordSealer.randomBytes(12 + RecordFrame.headSecretSize)
            let secret = Array(random[12...])
            let bytes: [UInt8]
            do {
                bytes = try RecordFrame.frameBytes(
                    payload, headSecret: secret, nonce: Array(random[..<12]), sequence: sequence, after: tail.chain, keys: keys, sealer: tail.sealer)
            } catch {
                throw .unwritable("a record could not be sealed")
            }
            // The record's tag, its last 16 bytes, is the chain value after it.
            let chain = ChainValue(bytes: Array(bytes.suffix(ChainValue.size)))
            if tail.size + bytes.count > limits.segmentBytes { try rotate(&tail, firstSequence: sequence) }
            guard JournalFiles.write(bytes, to: tail.descriptor) else {
                let reason = JournalFiles.reason()
                // Nothing half-written stays: the next record starts where this one would have.
                _ = ftruncate(tail.descriptor, off_t(tail.size))
                throw .unwritable(reason)
            }
            tail.size += bytes.count
            tail.lastSequence = sequence
            tail.chain = chain
            // The head lags by one record at most, and only when the process dies between the two writes.
            _ = JournalFiles.write(JournalHead(lastSequence: sequence, chain: chain, secret: secret).bytes, to: tail.head, at: 0)
            return sequence
        }
    }

    /// The records after `sequence`, oldest first, from every kept segment. A record that does not open or chain is
    /// an error: ``verify()`` names it.
    public func records(after sequence: UInt64 = 0) throws(AuditJournalError) -> [AuditJournalRecord] {
        var found: [AuditJournalRecord] = []
        let walk = try JournalWalk(files: files, keys: keys)
        if case .damaged(let file, let at, let reason) = walk.damage {
            throw .unreadable("\(file)\(at.map { ", record \($0)" } ?? ""): \(reason)")
        }
        for record in walk.records where record.sequence > sequence { found.append(record) }
        return found
    }

    /// Reads every kept record and checks each opens, follows the one before it, and that the last is the one
    /// the head names.
    public func verify() -> AuditVerification { Self.verify(files: files, keys: keys) }

    /// Verifies the journal in `folder` without opening it for writing: the way to say where a journal is damaged
    /// when it is too damaged to open.
    public static func verify(folder: String, keys: AuditKeys) -> AuditVerification { verify(files: JournalFiles(folder: folder), keys: keys) }

    private static func verify(files: JournalFiles, keys: AuditKeys) -> AuditVerification {
        do {
            let walk = try JournalWalk(files: files, keys: keys)
            if let damage = walk.damage { return damage }
            guard let head = JournalHead.read((try? JournalFiles.read(files.headPath)) ?? []) else {
                return .damaged(file: files.headPath, sequence: nil, reason: "the head is missing or was changed")
            }
            let last = walk.records.last?.sequence ?? (walk.firstSequence - 1)
            guard walk.firstSequence <= walk.firstKept else {
                return .damaged(
                    file: files.folder, sequence: walk.firstKept,
                    reason: "records \(walk.firstKept)–\(walk.firstSequence - 1) were removed with their segment, not by rotation")
            }
            let namesLast = head.lastSequence == last && head.chain == walk.chain && head.secret == walk.lastSecret
            let behindByOne = head.lastSequence + 1 == last && head.chain == walk.chainBeforeLast && head.secret == walk.secretBeforeLast
            guard namesLast || behindByOne else {
                let reason =
                    head.lastSequence > last
                    ? "records \(last + 1)–\(head.lastSequence) were removed from the end" : "the head does not name the last record"
                return .damaged(file: files.headPath, sequence: last, reason: reason)
            }
            return .intact(records: walk.records.count, firstSequence: walk.firstSequence, lastSequence: last, rotatedAway: walk.firstSequence - 1)
        } catch {
            return .damaged(file: files.folder, sequence: nil, reason: error.description)
        }
    }

    // MARK: Opening and rotating

    private static func openTail(files: JournalFiles, keys: AuditKeys, head: Int32) throws(AuditJournalError) -> Tail {
        let numbers = try files.segmentNumbers()
        guard let last = numbers.last else {
            let header = SegmentHeader(number: 1, firstSequence: 1, firstKept: 1, previous: .origin)
            let descriptor = try JournalFiles.openForAppending(files.segmentPath(1))
            guard JournalFiles.write(header.bytes(keys: keys), to: descriptor), fsync(descriptor) == 0 else {
                close(descriptor)
                throw .unwritable("cannot start \(files.segmentPath(1)): \(JournalFiles.reason())")
            }
            _ = JournalFiles.write(JournalHead.empty.bytes, to: head, at: 0)
            return Tail(
                sealer: RecordSealer(key: keys.sealing), segment: 1, descriptor: descriptor, size: SegmentHeader.size, lastSequence: 0, chain: .origin,
                head: head)
        }
        let path = files.segmentPath(last)
        if let tail = try continuing(at: path, segment: last, head: head, keys: keys, files: files) { return tail }
        let bytes = try JournalFiles.read(path)
        guard let header = SegmentHeader.read(bytes, keys: keys) else { throw .unreadable("\(path) does not start with the journal's header") }
        var chain = header.previous
        var sequence = header.firstSequence - 1
        var secret: [UInt8]?
        var offset = SegmentHeader.size
        while let read = RecordFrame.read(bytes, at: offset) {
            guard case .success(let (frame, next)) = read else {
                // A record cut short by a crash: it was never acknowledged.
                guard case .failure(.cutShort) = read, truncate(path, off_t(offset)) == 0 else {
                    throw .unreadable("\(path): a damaged record after record \(sequence)")
                }
                break
            }
            guard frame.sequence == sequence + 1, let opened = frame.open(keys: keys, after: chain) else {
                throw .unreadable("\(path): record \(frame.sequence) does not follow record \(sequence)")
            }
            secret = opened.headSecret
            chain = frame.chain
            sequence = frame.sequence
            offset = next
        }
        let descriptor = try JournalFiles.openForAppending(path)
        // A segment with no record yet: the head names the last record of the one before, which stays as it is.
        if let secret {
            _ = JournalFiles.write(JournalHead(lastSequence: sequence, chain: chain, secret: secret).bytes, to: head, at: 0)
        }
        return Tail(
            sealer: RecordSealer(key: keys.sealing), segment: last, descriptor: descriptor, size: offset, lastSequence: sequence, chain: chain, head: head)
    }

    /// The tail as the head names it, when the last segment's header is the journal's and the segment ends with the
    /// head's last record (its tag, the chain value, is the segment's last 16 bytes): the common case, read without
    /// opening any record. Nil after a crash
    /// between a record and the head, or with no record yet in the segment: the segment is then read in full.
    private static func continuing(
        at path: String, segment: UInt32, head: Int32, keys: AuditKeys, files: JournalFiles
    ) throws(AuditJournalError) -> Tail? {
        var headBytes = [UInt8](repeating: 0, count: JournalHead.size)
        let read = headBytes.withUnsafeMutableBytes { pread(head, $0.baseAddress, JournalHead.size, 0) }
        guard read == JournalHead.size, let named = JournalHead.read(headBytes), named.lastSequence > 0,
            let end = JournalFiles.end(of: path, count: ChainValue.size), end.size > SegmentHeader.size, end.bytes == named.chain.bytes,
            // The segment's header opens under these keys: a journal of other keys is read in full, and refused.
            let start = JournalFiles.start(of: path, count: SegmentHeader.size), SegmentHeader.read(start, keys: keys) != nil
        else { return nil }
        let descriptor = try JournalFiles.openForAppending(path)
        return Tail(
            sealer: RecordSealer(key: keys.sealing), segment: segment, descriptor: descriptor, size: end.size, lastSequence: named.lastSequence,
            chain: named.chain, head: head)
    }

    /// Starts the next segment with `firstSequence`, and removes the oldest past the limit; the new segment's header
    /// names the oldest record kept once they are gone.
    private func rotate(_ tail: inout Tail, firstSequence: UInt64) throws(AuditJournalError) {
        let number = tail.segment + 1
        let kept = (((try? files.segmentNumbers()) ?? []) + [number]).suffix(limits.segmentsKept)
        let oldest = kept.first.flatMap { $0 == number ? nil : try? JournalFiles.read(files.segmentPath($0)) }.flatMap { SegmentHeader.read($0, keys: keys) }
        let header = SegmentHeader(number: number, firstSequence: firstSequence, firstKept: oldest?.firstSequence ?? firstSequence, previous: tail.chain)
        let descriptor = try JournalFiles.openForAppending(files.segmentPath(number))
        guard JournalFiles.write(header.bytes(keys: keys), to: descriptor), fsync(descriptor) == 0 else {
            close(descriptor)
            unlink(files.segmentPath(number))
            throw .unwritable("cannot start \(files.segmentPath(number)): \(JournalFiles.reason())")
        }
        _ = fsync(tail.descriptor)
        close(tail.descriptor)
        tail.segment = number
        tail.descriptor = descriptor
        tail.size = SegmentHeader.size
        let numbers = (try? files.segmentNumbers()) ?? []
        for old in numbers.dropLast(limits.segmentsKept) { unlink(files.segmentPath(old)) }
    }
}
