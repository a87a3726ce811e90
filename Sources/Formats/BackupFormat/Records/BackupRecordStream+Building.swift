import KeychainModel

extension BackupRecordStream {
    /// The size of the parts a backup's items travel in between a front end and the keychain (4 MiB): within
    /// the daemon's request limit, few enough requests for any keychain.
    public static let partBytes = 4 << 20

    /// Gathers records into record streams of at most `maximumBytes` each (a record larger than that is a stream
    /// of its own): a backup's items as the keychain reads them, held as parts of a few MiB rather than as one
    /// list, then as one stream (``header(count:)`` and each part's records) when the backup file is sealed.
    public struct PartBuilder {
        /// The most bytes one part's stream takes.
        public let maximumBytes: Int
        /// The parts finished so far, in order.
        public private(set) var parts: [SecretBytes] = []
        /// How many records were appended.
        public private(set) var recordCount = 0
        private var pending: [BackupRecord] = []
        private var pendingBytes = BackupRecordStream.headerLength

        /// A builder of parts of at most `maximumBytes`.
        public init(maximumBytes: Int) {
            self.maximumBytes = maximumBytes
        }

        /// Adds `record` after the others.
        public mutating func append(_ record: BackupRecord) {
            let length = BackupRecordStream.encodedLength(of: record)
            if !pending.isEmpty, pendingBytes + length > maximumBytes { closePart() }
            pending.append(record)
            pendingBytes += length
            recordCount += 1
        }

        /// Every part (one empty part when no record was appended).
        public mutating func finish() -> [SecretBytes] {
            if !pending.isEmpty || parts.isEmpty { closePart() }
            return parts
        }

        private mutating func closePart() {
            parts.append(BackupRecordStream.encode(pending))
            pending.removeAll(keepingCapacity: true)
            pendingBytes = BackupRecordStream.headerLength
        }
    }

    /// The one stream whose records are those of `parts`, in order (each part a stream of its own).
    public static func joined(_ parts: [SecretBytes]) throws(BackupFormatError) -> SecretBytes {
        var count = 0
        var length = headerLength
        for part in parts {
            count += try declaredCount(of: part)
            length += part.count - headerLength
        }
        return SecretBytes(capacity: length) { buffer in
            var cursor = PlaintextCursor(buffer: buffer)
            cursor.append(header(count: count))
            for part in parts {
                part.withUnsafeBytes { bytes in
                    cursor.reserve(bytes.count - headerLength).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[headerLength...]))
                }
            }
            return length
        }
    }

    /// Calls `body` with the bytes of the one stream whose records are those of `parts`, piece by piece
    /// (the header, then each part's records), without joining them. Throws ``BackupFormatError/damaged(_:)``
    /// for a part without a valid header, before any piece; `body`'s errors propagate unchanged.
    public static func forEachPiece(joining parts: [SecretBytes], _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var count = 0
        for part in parts { count += try declaredCount(of: part) }
        try header(count: count).withUnsafeBytes { try body($0) }
        for part in parts {
            try part.withUnsafeBytes { bytes in try body(UnsafeRawBufferPointer(rebasing: bytes[headerLength...])) }
        }
    }

    /// The length of the one stream whose records are those of `parts`.
    public static func joinedLength(of parts: [SecretBytes]) -> Int {
        parts.reduce(headerLength) { $0 + $1.count - headerLength }
    }
}
