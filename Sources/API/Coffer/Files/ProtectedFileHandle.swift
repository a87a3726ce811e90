import Foundation
import KeychainModel
import ProtectedFileFormat
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// An open protected file, read and written like Foundation's `FileHandle`: at a position, with random access,
/// decrypted and encrypted chunk by chunk.
///
/// The file's key is unwrapped once, when the handle opens, and kept until ``close()``, as Apple's kernel
/// keeps an open file's key:
///
/// - ``FileProtectionType/completeUnlessOpen``: the handle keeps reading and writing after the keychain locks
///   (a handle that created the file while locked can write and read back its own content); opening the file
///   again needs the keychain unlocked.
/// - ``FileProtectionType/complete``: the key is dropped when the keychain locks. The handle asks the keychain
///   whether it is still unlocked before a call that needs the key, at most every 0.1 s; once it finds it
///   locked, it writes what it holds, forgets the key and the decrypted chunk, and fails with
///   `.fileReadNoPermission` (or `.fileWriteNoPermission`) until the keychain is unlocked again.
/// - ``FileProtectionType/completeUntilFirstUserAuthentication`` and ``FileProtectionType/none``: the key stays.
///
/// Calls are serialised: a handle may be shared between threads and tasks. Every call blocks its thread on
/// file I/O (and, for a `complete` file, may ask the keychain), as `FileHandle`'s do. Write data reaches the
/// disk at the latest at ``synchronize()`` or ``close()``.
public final class ProtectedFileHandle: Sendable {
    private struct State: Sendable {
        var file: ChunkedFile?
        var position = 0
        var lastLockCheck: ContinuousClock.Instant?
    }

    private let state: Mutex<State>
    private let service: FileKeyService
    private let writable: Bool
    private let lockCheckInterval: Duration
    /// The path the handle was opened with.
    public let path: String
    /// The file's protection.
    public let protection: FileProtectionType
    private let protectionClass: FileProtectionClass

    private init(file: ChunkedFile, path: String, service: FileKeyService, writable: Bool, lockCheckInterval: Duration) {
        protectionClass = file.header.protection
        protection = FileProtectionType(protectionClass)
        self.path = path
        self.service = service
        self.writable = writable
        self.lockCheckInterval = lockCheckInterval
        state = Mutex(State(file: file, lastLockCheck: .now))
    }

    /// Opens the protected file at `url` for reading. Its class key must be available now.
    public convenience init(forReadingFrom url: URL, keychain: Keychain = .shared) throws(ProtectedFileError) {
        try self.init(opening: url, writable: false, keychain: keychain, lockCheckInterval: .milliseconds(100))
    }

    /// Opens the protected file at `url` for reading and writing. Its class key must be available now.
    public convenience init(forUpdating url: URL, keychain: Keychain = .shared) throws(ProtectedFileError) {
        try self.init(opening: url, writable: true, keychain: keychain, lockCheckInterval: .milliseconds(100))
    }

    /// Creates an empty protected file at `url` with `protection`, replacing any file there, open for reading
    /// and writing. A ``FileProtectionType/completeUnlessOpen`` file can be created while the keychain is locked.
    public convenience init(forWritingTo url: URL, protection: FileProtectionType, keychain: Keychain = .shared) throws(ProtectedFileError) {
        try self.init(creating: url, protection: protection, keychain: keychain, lockCheckInterval: .milliseconds(100))
    }

    /// Creates an empty protected file at `url`, a temporary name, that will be renamed to `finalURL` once written:
    /// a protected file opens only at the path it was written for, so it is written for `finalURL`. Opened at `url`,
    /// it fails as a file that belongs elsewhere.
    public convenience init(
        forWritingTo url: URL, renamedTo finalURL: URL, protection: FileProtectionType, keychain: Keychain = .shared
    ) throws(ProtectedFileError) {
        try self.init(
            creating: url, boundTo: finalURL, protection: protection, keychain: keychain, lockCheckInterval: .milliseconds(100))
    }

    /// Opens an existing file; `lockCheckInterval` is how stale the knowledge that the keychain is unlocked may be.
    convenience init(opening url: URL, writable: Bool, keychain: Keychain, lockCheckInterval: Duration) throws(ProtectedFileError) {
        let service = FileKeyService(client: keychain.client)
        let descriptor = try FileDescriptor.open(url.path, flags: writable ? O_RDWR : O_RDONLY, writing: false)
        let (header, headerBytes) = try ChunkedFile.readHeader(descriptor)
        let fileKey = try service.unwrap(header.wrappedKey, path: url.path, writing: writable)
        let file = try ChunkedFile.open(
            descriptor, header: header, headerBytes: headerBytes, fileKey: fileKey, boundTo: BoundPath.of(url.path))
        self.init(file: file, path: url.path, service: service, writable: writable, lockCheckInterval: lockCheckInterval)
    }

    /// Creates a new file, bound to `finalURL` (`url` when nil).
    convenience init(
        creating url: URL, boundTo finalURL: URL? = nil, protection: FileProtectionType, keychain: Keychain, lockCheckInterval: Duration
    ) throws(ProtectedFileError) {
        let protectionClass = try protection.requiredClass(path: url.path)
        let service = FileKeyService(client: keychain.client)
        let fileKey = try service.makeKey(protectionClass, path: url.path)
        let descriptor = try FileDescriptor.open(url.path, flags: O_RDWR | O_CREAT | O_TRUNC, writing: true)
        let file = try ChunkedFile.create(on: descriptor, fileKey: fileKey, boundTo: BoundPath.of((finalURL ?? url).path))
        self.init(file: file, path: url.path, service: service, writable: true, lockCheckInterval: lockCheckInterval)
    }

    deinit {
        state.withLock { state in try? state.file?.close() }
    }

    // MARK: Position

    /// The content's length in bytes.
    public var length: UInt64 {
        get throws(ProtectedFileError) { try access { file, _ throws(ProtectedFileError) in UInt64(file.length) } }
    }

    /// The current position.
    public func offset() throws(ProtectedFileError) -> UInt64 {
        try access { _, position throws(ProtectedFileError) in UInt64(position) }
    }

    /// Moves to `offset`; past the end is allowed, and a write there fills the gap with zeros.
    public func seek(toOffset offset: UInt64) throws(ProtectedFileError) {
        try access { _, position throws(ProtectedFileError) in position = Int(offset) }
    }

    /// Moves to the end of the content and answers its length.
    @discardableResult
    public func seekToEnd() throws(ProtectedFileError) -> UInt64 {
        try access { file, position throws(ProtectedFileError) in
            position = file.length
            return UInt64(position)
        }
    }

    // MARK: Reading

    /// Up to `count` bytes from the current position, which advances; nil at the end, as `FileHandle` answers.
    public func read(upToCount count: Int) throws(ProtectedFileError) -> Data? {
        try withKey(writing: false) { file, position throws(ProtectedFileError) -> Data? in
            let data = try file.read(at: position, count: count)
            position += data.count
            return data.isEmpty && count > 0 ? nil : data
        }
    }

    /// Everything from the current position to the end; nil when already at the end.
    public func readToEnd() throws(ProtectedFileError) -> Data? {
        try withKey(writing: false) { file, position throws(ProtectedFileError) -> Data? in
            let data = try file.read(at: position, count: max(0, file.length - position))
            position += data.count
            return data.isEmpty ? nil : data
        }
    }

    /// Up to `count` bytes at `offset`, leaving the position alone (random access).
    public func read(fromOffset offset: UInt64, upToCount count: Int) throws(ProtectedFileError) -> Data {
        try withKey(writing: false) { file, _ throws(ProtectedFileError) in try file.read(at: Int(offset), count: count) }
    }

    // MARK: Writing

    /// Writes `data` at the current position, which advances past it.
    public func write<Bytes: DataProtocol>(contentsOf data: Bytes) throws(ProtectedFileError) {
        let bytes = [UInt8](data)
        try requireWritable()
        try withKey(writing: true) { file, position throws(ProtectedFileError) in
            try withBytes(of: bytes) { (buffer) throws(ProtectedFileError) in try file.write(buffer, at: position) }
            position += bytes.count
        }
    }

    /// Sets the content's length to `offset` (cut, or extended with zeros) and moves there.
    public func truncate(atOffset offset: UInt64) throws(ProtectedFileError) {
        try requireWritable()
        try withKey(writing: true) { file, position throws(ProtectedFileError) in
            try file.truncate(to: Int(offset))
            position = Int(offset)
        }
    }

    /// Writes what the handle holds and makes it durable (`fsync`).
    public func synchronize() throws(ProtectedFileError) {
        try withKey(writing: true) { file, _ throws(ProtectedFileError) in
            try file.flush()
            try file.descriptor.synchronize()
        }
    }

    /// Writes what the handle holds, forgets the file's key and closes the file. Later calls fail.
    public func close() throws(ProtectedFileError) {
        let file = state.withLock { state -> ChunkedFile? in
            defer { state.file = nil }
            return state.file
        }
        try file?.close()
    }

    // MARK: Access

    private func requireWritable() throws(ProtectedFileError) {
        guard writable else {
            throw ProtectedFileError(.fileWriteNoPermission, path: path, reason: "the handle was opened for reading")
        }
    }

    /// Runs `body` with the open file, without needing its key.
    private func access<Result>(
        _ body: (ChunkedFile, inout Int) throws(ProtectedFileError) -> Result
    ) throws(ProtectedFileError) -> Result {
        try state.withLock { (state: inout State) throws(ProtectedFileError) -> Result in
            guard let file = state.file else { throw closedError }
            return try body(file, &state.position)
        }
    }

    /// Runs `body` with the open file and its key: for a `complete` file, after checking the keychain is still
    /// unlocked (dropping the key when it is not), and unwrapping the key again after an unlock.
    private func withKey<Result>(
        writing: Bool, _ body: (ChunkedFile, inout Int) throws(ProtectedFileError) -> Result
    ) throws(ProtectedFileError) -> Result {
        try state.withLock { (state: inout State) throws(ProtectedFileError) -> Result in
            guard let file = state.file else { throw closedError }
            if protectionClass == .complete {
                let now = ContinuousClock.now
                if state.lastLockCheck.map({ now - $0 >= lockCheckInterval }) ?? true {
                    guard service.isUnlocked() else {
                        file.dropKeys()
                        state.lastLockCheck = nil
                        throw FileKeyService.failure(.classUnavailable(.whenUnlocked), protection: .complete, path: path, writing: writing)
                    }
                    state.lastLockCheck = now
                }
            }
            if file.keys == nil {
                file.restoreKeys(try service.unwrap(file.header.wrappedKey, path: path, writing: writing))
                state.lastLockCheck = .now
            }
            return try body(file, &state.position)
        }
    }

    private var closedError: ProtectedFileError {
        ProtectedFileError(.fileReadUnknown, path: path, reason: "the handle is closed")
    }
}
