import BackupFormat
import Foundation
import KeychainModel
import ProtectedFileFormat

#if canImport(Glibc)
import Glibc
#endif

/// The protected files a backup takes, found and checked before anything is written: each named file (which
/// must be a protected file this keychain can open now) and every protected file under a named folder,
/// recursively (other files and symbolic links there are passed over).
struct BackupFileCollection {
    /// The files, in the order named (a folder's files sorted by path), each once.
    let entries: [BackupFileEntry]
    private let keychain: Keychain

    /// Finds and opens each file of `urls`; throws a ``BackupError/Kind/file`` error naming the first path that
    /// is missing, not a protected file, or not readable now (a `complete` file while the keychain is locked).
    init(_ urls: [URL], keychain: Keychain) throws(BackupError) {
        self.keychain = keychain
        var paths: [String] = []
        var seen: Set<String> = []
        for url in urls {
            for path in try Self.expand(url) where seen.insert(path).inserted { paths.append(path) }
        }
        var entries: [BackupFileEntry] = []
        for path in paths {
            guard BackupFileEntry.isAcceptable(path: path) else { throw BackupError(.file, "\(path): this path cannot be kept in a backup") }
            do throws(ProtectedFileError) {
                let handle = try ProtectedFileHandle(forReadingFrom: URL(fileURLWithPath: path), keychain: keychain)
                defer { try? handle.close() }
                guard let protection = handle.protection.fileProtectionClass else {
                    throw ProtectedFileError(.fileReadUnknown, path: path, reason: "its protection has no class")
                }
                entries.append(BackupFileEntry(path: path, protection: protection, length: Int(try handle.length)))
            } catch {
                throw Self.failure(error, path: path)
            }
        }
        self.entries = entries
    }

    /// Reads file `index`'s content into `buffer` (exactly its length), reporting progress; the file must not
    /// have changed length since it was found. Each piece read is zeroized once copied.
    func read(_ index: Int, into buffer: UnsafeMutableRawBufferPointer, progress: (BackupStage) -> Void) throws(BackupError) {
        let entry = entries[index]
        do throws(ProtectedFileError) {
            let handle = try ProtectedFileHandle(forReadingFrom: URL(fileURLWithPath: entry.path), keychain: keychain)
            defer { try? handle.close() }
            guard try handle.length == UInt64(entry.length) else {
                throw ProtectedFileError(.fileReadUnknown, path: entry.path, reason: "the file changed while it was backed up")
            }
            progress(.protectedFile(path: entry.path, done: 0, total: entry.length))
            var offset = 0
            while offset < entry.length {
                guard var piece = try handle.read(upToCount: min(Self.step, entry.length - offset)), !piece.isEmpty else {
                    throw ProtectedFileError(.fileReadUnknown, path: entry.path, reason: "the file changed while it was backed up")
                }
                piece.withUnsafeBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + bytes.count]).copyMemory(from: bytes)
                }
                offset += piece.count
                piece.resetBytes(in: 0..<piece.count)
                progress(.protectedFile(path: entry.path, done: offset, total: entry.length))
            }
        } catch {
            throw Self.failure(error, path: entry.path)
        }
    }

    /// Bytes read at a time (16 chunks).
    static let step = 1 << 20

    /// The absolute path of `url` (symbolic links resolved), or of every protected file under it when it is a folder.
    private static func expand(_ url: URL) throws(BackupError) -> [String] {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw BackupError(.file, "\(url.path): cannot back up the file: \(String(cString: strerror(errno)))")
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return [path]
        case S_IFDIR: return try protectedFiles(under: path)
        default: throw BackupError(.file, "\(path): not a regular file or a folder")
        }
    }

    /// Every regular file under `folder` (recursively, links not followed) that starts with a protected file's header.
    private static func protectedFiles(under folder: String) throws(BackupError) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
            throw BackupError(.file, "\(folder): cannot list the folder")
        }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = folder == "/" ? "/" + relative : folder + "/" + relative
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, isProtectedFile(path) else { continue }
            found.append(path)
        }
        return found.sorted()
    }

    /// Whether the file at `path` has a protected file's header (not yet authenticated).
    private static func isProtectedFile(_ path: String) -> Bool {
        guard let descriptor = try? FileDescriptor.open(path, flags: O_RDONLY, writing: false) else { return false }
        defer { descriptor.close() }
        return (try? ChunkedFile.readHeader(descriptor)) != nil
    }

    /// A file refusal as a backup error naming the path.
    private static func failure(_ error: ProtectedFileError, path: String) -> BackupError {
        if error.code == .fileReadCorruptFile {
            return BackupError(.file, "\(path): not a protected file, or a damaged one (\(error.reason)); nothing was written")
        }
        return BackupError(.file, "\(path): cannot back up the file: \(error.reason); nothing was written", status: error.keychainStatus)
    }
}

extension BackupFileCollection {
    /// The backup's plaintext and format version: `items` alone when there is no file, else `items` and every
    /// file's content read in place into the zeroizing plaintext.
    func payload(items: SecretBytes, progress: (BackupStage) -> Void) throws(BackupError) -> (plaintext: SecretBytes, version: UInt8) {
        try BackupPayload.encode(items: items, files: entries) { (index, buffer) throws(BackupError) in
            try read(index, into: buffer, progress: progress)
        }
    }
}
