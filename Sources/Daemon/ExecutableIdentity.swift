import Crypto
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The program behind a connection: the path of its executable and the SHA-256 of the file that is
/// actually running (read through `/proc/PID/exe`, so replacing the file on disk afterwards changes nothing).
public struct ExecutableIdentity: Sendable, Hashable {
    /// The executable's path as the kernel reports it (may end in " (deleted)").
    public let path: String
    /// SHA-256 of the running executable's contents, lowercase hex.
    public let sha256: String
    /// The access group the program gets while it is not registered (``AppRegistry/unregisteredGroup(forPath:)``),
    /// derived once per connection rather than per request.
    public let unregisteredGroup: String

    /// An identity with the given path and hash.
    public init(path: String, sha256: String) {
        self.path = path
        self.sha256 = sha256
        unregisteredGroup = AppRegistry.unregisteredGroup(forPath: path)
    }
}

/// Resolves and hashes the executables of peer processes, caching hashes by (device, inode, size,
/// mtime) so that a program connecting often is hashed once.
public final class ExecutableIdentifier: Sendable {
    private struct FileKey: Hashable {
        let device: UInt64
        let inode: UInt64
        let size: Int64
        let modified: Int64
        let modifiedNanoseconds: Int
    }

    private let cache = Mutex<[FileKey: String]>([:])
    private let procRoot: String

    /// An identifier reading `procRoot` (normally `/proc`).
    public init(procRoot: String = "/proc") { self.procRoot = procRoot }

    /// The identity of the process behind `peer`.
    ///
    /// The executable is read before and checked after: if the pinned process is no longer the one
    /// that connected (it exited and its PID may have been reused), the answer is an error, never
    /// another program's identity.
    public func identify(_ peer: PeerCredentials) throws -> ExecutableIdentity {
        let exe = "\(procRoot)/\(peer.pid)/exe"
        guard let path = Self.readLink(exe) else { throw DaemonError.unidentifiablePeer("cannot read \(exe)") }
        let descriptor = open(exe, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DaemonError.unidentifiablePeer("cannot open \(exe): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw DaemonError.system("fstat", errno) }
        let key = FileKey(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: Int64(status.st_mtim.tv_sec), modifiedNanoseconds: status.st_mtim.tv_nsec)
        let hash = try cache.withLock { $0[key] } ?? {
            let computed = try Self.sha256(of: descriptor)
            cache.withLock { $0[key] = computed }
            return computed
        }()
        guard peer.isStillTheConnectedProcess else {
            throw DaemonError.unidentifiablePeer("process \(peer.pid) exited or its PID was reused while it was identified")
        }
        return ExecutableIdentity(path: path, sha256: hash)
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func sha256(of descriptor: Int32) throws -> String {
        var hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw DaemonError.system("read", errno)
            }
            if count == 0 { break }
            hasher.update(data: buffer[0..<count])
        }
        return AppRegistry.hex(hasher.finalize())
    }
}
