import KeychainModel

/// The plaintext of a backup that holds protected files (format version 2 of ``BackupHeader``): the items, as
/// a ``BackupRecordStream``, then the files.
///
/// Layout: `CFBP`, layout byte `1`, the item stream's length (UInt64 BE) and the stream, the file count
/// (UInt32 BE), then per file its protection class (UInt8, Apple's class number 1–4), its path (UInt16 BE
/// length and UTF-8, see ``BackupFileEntry/isAcceptable(path:)``) and its content (UInt64 BE length and
/// bytes). Nothing follows the last file. A backup of items alone stays format version 1, whose plaintext is
/// the item stream itself, so older builds still read it; they refuse version 2 by its header.
public enum BackupPayload {
    static let magic: [UInt8] = Array("CFBP".utf8)
    static let layout: UInt8 = 1

    /// The plaintext and the header version for `items` (an encoded ``BackupRecordStream``) and `files`, in one
    /// zeroizing buffer: `content` is called once per file, in order, to write the file's content (exactly its
    /// entry's length) in place. Without files, the plaintext is `items` and the version 1.
    public static func encode<Failure: Error>(
        items: SecretBytes, files: [BackupFileEntry],
        content: (Int, UnsafeMutableRawBufferPointer) throws(Failure) -> Void
    ) throws(Failure) -> (plaintext: SecretBytes, version: UInt8) {
        guard !files.isEmpty else { return (items, BackupHeader.itemsOnlyVersion) }
        var length = magic.count + 1 + 8 + items.count + 4
        for file in files { length += 1 + 2 + file.path.utf8.count + 8 + file.length }
        do {
            let plaintext = try SecretBytes(capacity: length) { buffer in
                var cursor = PlaintextCursor(buffer: buffer)
                cursor.append(magic)
                cursor.append([layout])
                cursor.integer(UInt64(items.count))
                items.withUnsafeBytes { cursor.reserve($0.count).copyMemory(from: $0) }
                cursor.integer(UInt32(files.count))
                for (index, file) in files.enumerated() {
                    precondition(BackupFileEntry.isAcceptable(path: file.path), "a backup file's path")
                    cursor.append([file.protection.rawValue])
                    cursor.integer(UInt16(file.path.utf8.count))
                    cursor.append(Array(file.path.utf8))
                    cursor.integer(UInt64(file.length))
                    try content(index, cursor.reserve(file.length))
                }
                precondition(cursor.offset == length, "backup payload length")
                return length
            }
            return (plaintext, BackupHeader.currentVersion)
        } catch {
            // Only `content` throws, and only `Failure`.
            throw error as! Failure
        }
    }

    /// The items and files of a backup's plaintext, read as its header's `version` says; throws
    /// ``BackupFormatError/damaged(_:)`` for anything malformed, including the item stream's structure.
    public static func decode(_ plaintext: SecretBytes, version: UInt8) throws(BackupFormatError) -> OpenedBackup {
        guard version != BackupHeader.itemsOnlyVersion else {
            _ = try BackupRecordStream.count(in: plaintext)
            return OpenedBackup(items: plaintext, files: [], plaintext: plaintext, offsets: [])
        }
        guard version == BackupHeader.currentVersion else { throw .unsupportedVersion(version) }
        let (itemRange, files, offsets) = try plaintext.withUnsafeBytes {
            (bytes: UnsafeRawBufferPointer) throws(BackupFormatError) -> (Range<Int>, [BackupFileEntry], [Int]) in
            var reader = PlaintextReader(bytes: bytes, whole: "the content")
            guard try reader.take(magic.count).elementsEqual(magic), try reader.take(1)[0] == layout else {
                throw .damaged("the content has no valid header")
            }
            let itemLength = try reader.length(try reader.integer(UInt64.self))
            let itemRange = reader.offset..<reader.offset + itemLength
            _ = try reader.take(itemLength)
            let count = Int(try reader.integer(UInt32.self))
            // Every file takes at least 12 bytes: a count cannot ask for more room than the input justifies.
            guard count <= bytes.count / 12 else { throw .damaged("the file count does not fit the content") }
            var files: [BackupFileEntry] = []
            var offsets: [Int] = []
            for _ in 0..<count {
                guard let protection = FileProtectionClass(rawValue: try reader.take(1)[0]) else {
                    throw .damaged("a file has an unknown protection class")
                }
                let raw = try reader.take(Int(try reader.integer(UInt16.self)))
                guard let path = String(validating: raw, as: UTF8.self), BackupFileEntry.isAcceptable(path: path) else {
                    throw .damaged("a file's path is not an acceptable absolute path")
                }
                let length = try reader.length(try reader.integer(UInt64.self))
                offsets.append(reader.offset)
                _ = try reader.take(length)
                files.append(BackupFileEntry(path: path, protection: protection, length: length))
            }
            guard reader.offset == bytes.count else { throw .damaged("bytes follow the last file") }
            return (itemRange, files, offsets)
        }
        let items = plaintext.withUnsafeBytes { bytes in SecretBytes(copying: UnsafeRawBufferPointer(rebasing: bytes[itemRange])) }
        _ = try BackupRecordStream.count(in: items)
        return OpenedBackup(items: items, files: files, plaintext: plaintext, offsets: offsets)
    }
}
