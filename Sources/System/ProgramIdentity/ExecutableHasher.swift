import Crypto
import KeychainModel
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Hashes executables for pinned path-mode registrations, with bounds a caller cannot push: regular files
/// only, a size limit, and a check between 64 KiB chunks that abandons the work when the peer has gone.
///
/// Hashes are cached by (device, inode, size, modification time, status-change time). A program of the
/// user can rewrite a file in place and set its modification time back, but not its status-change time,
/// which the kernel moves on every write and every `utimensat`; so a rewritten file is hashed again.
public final class ExecutableHasher: Sendable {
    /// Why a file was not hashed.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not a regular file (a device, a FIFO, a directory…).
        case notRegularFile
        /// Larger than the limit.
        case tooLarge(size: Int64, limit: Int64)
        /// The caller gave up (the peer closed its connection).
        case abandoned
        /// A read failed.
        case unreadable(Int32)

        public var description: String {
            switch self {
            case .notRegularFile: "the executable is not a regular file"
            case .tooLarge(let size, let limit): "the executable is \(size) bytes, more than the \(limit)-byte hashing limit"
            case .abandoned: "the peer went away while its executable was hashed"
            case .unreadable(let code): "the executable could not be read: \(String(cString: strerror(code)))"
            }
        }
    }

    /// The default limit: 512 MiB, far above any real program, and about a second of SHA-256.
    public static let defaultMaximumSize: Int64 = 512 << 20
    /// How many hashes the cache keeps before it starts over.
    static let cacheCapacity = 4096
    /// Bytes read between two checks of the cancellation test.
    static let chunkSize = 1 << 16

    private struct CacheKey: Hashable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: FileIdentity.Timestamp
        let changed: FileIdentity.Timestamp
    }

    /// The largest file hashed, in bytes.
    public let maximumSize: Int64
    private let cache = Mutex<[CacheKey: String]>([:])

    /// A hasher refusing files above `maximumSize` bytes.
    public init(maximumSize: Int64 = ExecutableHasher.defaultMaximumSize) { self.maximumSize = maximumSize }

    /// The SHA-256 (lowercase hex) of the file open as `descriptor`, whose `fstat` is `file`.
    ///
    /// - Parameter isAbandoned: asked before each 64 KiB chunk; when it answers true, hashing stops with
    ///   ``Refusal/abandoned`` and nothing is cached.
    public func sha256(of descriptor: Int32, file: FileIdentity, isAbandoned: () -> Bool) throws(Refusal) -> String {
        guard file.isRegularFile else { throw .notRegularFile }
        guard file.size <= maximumSize else { throw .tooLarge(size: file.size, limit: maximumSize) }
        let key = CacheKey(device: file.device, inode: file.inode, size: file.size, modified: file.modified, changed: file.changed)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        var offset: Int64 = 0
        while true {
            if isAbandoned() { throw .abandoned }
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Self.chunkSize, off_t(offset)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(errno)
            }
            if count == 0 { break }
            offset += Int64(count)
            // The file grew after fstat: the limit holds for what is read, not only for what was announced.
            guard offset <= maximumSize else { throw .tooLarge(size: offset, limit: maximumSize) }
            hasher.update(data: buffer[0..<count])
        }
        let digest = Hexadecimal.text(hasher.finalize())
        cache.withLock { cache in
            if cache.count >= Self.cacheCapacity { cache.removeAll(keepingCapacity: true) }
            cache[key] = digest
        }
        return digest
    }

    /// The SHA-256 of the file at `path` (for pinning at registration), within the same bounds.
    public func sha256(ofFileAt path: String) throws(Refusal) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .unreadable(errno) }
        defer { close(descriptor) }
        let file: FileIdentity
        do {
            file = try FileIdentity.of(descriptor: descriptor)
        } catch {
            throw .unreadable(errno)
        }
        return try sha256(of: descriptor, file: file, isAbandoned: { false })
    }
}
