import KeychainModel

extension BackupRecordStream {
    /// Cuts a record stream that arrives piece by piece (a backup's plaintext as it is decrypted, chunk after
    /// chunk) into record streams of whole records of about `maximumBytes` each, checking the structure on the
    /// way: what one request of a staged restore carries, without ever holding the whole stream.
    ///
    /// Feed it with ``append(_:)``; each call returns the parts it completed. ``finish()`` returns the last one
    /// and checks that the stream ended where its header says (no record cut short, none missing, nothing after).
    public final class Splitter {
        private let maximumBytes: Int
        private let scratch: SecretScratch
        private var declaredCount: Int?
        private var recordsSeen = 0
        /// Records at the front of `scratch` that are complete, and the bytes they take.
        private var completeCount = 0
        private var completeBytes = 0
        private var emittedAny = false

        /// A splitter whose parts take about `maximumBytes` (at least one record each); pieces fed to it are at
        /// most `largestPiece` bytes.
        public init(maximumBytes: Int, largestPiece: Int) {
            self.maximumBytes = maximumBytes
            // A part's worth, the piece that overflows it, and room for one record larger than a part.
            scratch = SecretScratch(capacity: 2 * maximumBytes + largestPiece)
        }

        /// Takes the next `piece` of the stream; returns the parts it completed.
        public func append(_ piece: UnsafeRawBufferPointer) throws(BackupFormatError) -> [SecretBytes] {
            var parts: [SecretBytes] = []
            var rest = piece
            while !rest.isEmpty {
                let room = scratch.capacity - scratch.count
                guard room > 0 else {
                    throw .damaged("an item is larger than a restore can carry (\(scratch.capacity >> 20) MiB)")
                }
                let taken = min(room, rest.count)
                scratch.append(UnsafeRawBufferPointer(rebasing: rest[0..<taken]))
                rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
                try readHeaderIfComplete()
                while try scanRecords() == .partFull || (completeCount > 0 && scratch.count == scratch.capacity) {
                    parts.append(takeCompleteRecords())
                }
            }
            return parts
        }

        /// The last part, once the whole stream was given; throws when the stream is cut short, lacks records
        /// its header declares, or has bytes after its last record.
        public func finish() throws(BackupFormatError) -> SecretBytes? {
            guard let declaredCount else { throw .damaged("the item list has no valid header") }
            guard recordsSeen == declaredCount else { throw .damaged("the item list ends before its last item") }
            guard scratch.count == completeBytes else { throw .damaged("bytes follow the last item") }
            guard completeCount > 0 || !emittedAny else { return nil }
            return takeCompleteRecords()
        }

        private func readHeaderIfComplete() throws(BackupFormatError) {
            guard declaredCount == nil, scratch.count >= BackupRecordStream.headerLength else { return }
            let count = try scratch.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(BackupFormatError) -> Int in
                guard bytes.prefix(magic.count).elementsEqual(magic), bytes[magic.count] == version else {
                    throw .damaged("the item list has no valid header")
                }
                return bytes[magic.count + 1..<BackupRecordStream.headerLength].reduce(0) { $0 << 8 | Int($1) }
            }
            scratch.removeFirst(BackupRecordStream.headerLength)
            declaredCount = count
        }

        private enum ScanEnd { case needsMore, partFull }

        /// Counts the complete records after those already counted, up to a part's worth: `.partFull` when the
        /// next complete record would take the part past `maximumBytes` (a record larger than a part travels alone).
        private func scanRecords() throws(BackupFormatError) -> ScanEnd {
            guard let declaredCount else { return .needsMore }
            return try scratch.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(BackupFormatError) -> ScanEnd in
                while recordsSeen < declaredCount, let end = try BackupRecordStream.completeRecordEnd(in: bytes, from: completeBytes) {
                    if completeCount > 0, BackupRecordStream.headerLength + end > maximumBytes { return .partFull }
                    completeBytes = end
                    completeCount += 1
                    recordsSeen += 1
                }
                if recordsSeen == declaredCount, bytes.count > completeBytes { throw .damaged("bytes follow the last item") }
                return .needsMore
            }
        }

        private func takeCompleteRecords() -> SecretBytes {
            let length = BackupRecordStream.headerLength + completeBytes
            let part = SecretBytes(capacity: length) { buffer in
                buffer.copyBytes(from: BackupRecordStream.header(count: completeCount))
                scratch.withUnsafeBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[BackupRecordStream.headerLength..<length])
                        .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<completeBytes]))
                }
                return length
            }
            scratch.removeFirst(completeBytes)
            completeBytes = 0
            completeCount = 0
            emittedAny = true
            return part
        }
    }
}
