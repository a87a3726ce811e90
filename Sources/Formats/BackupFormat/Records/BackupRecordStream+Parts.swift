import KeychainModel

extension BackupRecordStream {
    /// A run of whole records of a record stream: what one request of a staged restore carries.
    public struct Part: Sendable, Equatable {
        /// Where the part's records lie in the stream (after the stream's header).
        public let bytes: Range<Int>
        /// How many records it holds.
        public let recordCount: Int
    }

    /// The bytes of a stream's header: magic, version, record count.
    static var headerLength: Int { magic.count + 1 + 4 }

    /// Cuts `stream`'s records into parts whose own streams (``stream(of:in:)``) take at most `maximumBytes`
    /// each; a record larger than that is a part of its own. An empty stream is one empty part. Throws
    /// ``BackupFormatError/damaged(_:)`` when the stream's structure does not hold.
    public static func parts(of stream: SecretBytes, maximumBytes: Int) throws(BackupFormatError) -> [Part] {
        try stream.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(BackupFormatError) -> [Part] in
            guard bytes.count >= headerLength, bytes.prefix(magic.count).elementsEqual(magic), bytes[magic.count] == version else {
                throw .damaged("the item list has no valid header")
            }
            let count = bytes[magic.count + 1..<headerLength].reduce(0) { $0 << 8 | Int($1) }
            let budget = max(maximumBytes - headerLength, 1)
            var parts: [Part] = []
            var start = headerLength
            var offset = headerLength
            var inPart = 0
            for _ in 0..<count {
                let end = try recordEnd(in: bytes, from: offset)
                if inPart > 0, end - start > budget {
                    parts.append(Part(bytes: start..<offset, recordCount: inPart))
                    start = offset
                    inPart = 0
                }
                offset = end
                inPart += 1
            }
            guard offset == bytes.count else { throw .damaged("bytes follow the last item") }
            if inPart > 0 || parts.isEmpty { parts.append(Part(bytes: start..<offset, recordCount: inPart)) }
            return parts
        }
    }

    /// `part` of `stream` as a record stream of its own: a header with the part's record count, then its records.
    public static func stream(of part: Part, in stream: SecretBytes) -> SecretBytes {
        let length = headerLength + part.bytes.count
        return SecretBytes(capacity: length) { buffer in
            buffer.copyBytes(from: header(count: part.recordCount))
            stream.withUnsafeBytes { (source: UnsafeRawBufferPointer) in
                UnsafeMutableRawBufferPointer(rebasing: buffer[headerLength..<length])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[part.bytes]))
            }
            return length
        }
    }

    /// Where the record starting at `offset` ends, checking every length against the stream's end.
    private static func recordEnd(in bytes: UnsafeRawBufferPointer, from offset: Int) throws(BackupFormatError) -> Int {
        guard let end = try completeRecordEnd(in: bytes, from: offset) else {
            throw .damaged("a length runs past the end of the item list")
        }
        return end
    }

    /// Where the record starting at `offset` ends; nil when `bytes` end before it does (the rest has not come
    /// yet, or the stream is cut). Throws ``BackupFormatError/damaged(_:)`` for an invalid value flag.
    static func completeRecordEnd(in bytes: UnsafeRawBufferPointer, from offset: Int) throws(BackupFormatError) -> Int? {
        var cursor = offset
        func advance(_ count: Int) -> Bool {
            guard count <= bytes.count - cursor else { return false }
            cursor += count
            return true
        }
        func length(width: Int) -> Int? {
            let start = cursor
            guard advance(width) else { return nil }
            return bytes[start..<cursor].reduce(0) { $0 << 8 | Int($1) }
        }
        for width in [1, 1, 4] {  // class, protection class, attributes
            guard let count = length(width: width), advance(count) else { return nil }
        }
        switch length(width: 1) {
        case nil: return nil
        case 0?: break
        case 1?:
            guard let count = length(width: 4), advance(count) else { return nil }
        default: throw .damaged("an item's value flag is invalid")
        }
        return cursor
    }
}
