import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// The few socket calls the agent makes, with `errno` turned into ``AgentSocketError``.
enum UnixSocket {
    /// A listening Unix stream socket at `path`, mode 0600 (made under a umask of 0177, so it is never wider).
    static func listen(at path: String) throws(AgentSocketError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw AgentSocketError("the socket path is too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw AgentSocketError("socket failed (errno \(errno))") }
        let previous = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindError = errno
        umask(previous)
        guard bound == 0 else {
            close(descriptor)
            throw AgentSocketError("cannot bind \(path) (errno \(bindError)\(bindError == EADDRINUSE ? ": in use" : ""))")
        }
        guard chmod(path, 0o600) == 0, Glibc.listen(descriptor, 128) == 0 else {
            let failure = errno
            close(descriptor)
            unlink(path)
            throw AgentSocketError("cannot listen on \(path) (errno \(failure))")
        }
        return descriptor
    }

    /// Reads exactly `count` bytes into a fresh buffer; nil at end of file or on an error.
    static func read(_ descriptor: Int32, count: Int) -> Data? {
        var buffer = Data(count: count)
        var filled = 0
        let complete = buffer.withUnsafeMutableBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return count == 0 }
            while filled < count {
                let got = recv(descriptor, base + filled, count - filled, 0)
                if got > 0 {
                    filled += got
                } else if got < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
        if !complete { buffer.zeroize() }
        return complete ? buffer : nil
    }

    /// Writes all of `data`; false on an error (a peer that went away raises no `SIGPIPE`).
    static func write(_ descriptor: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var sent = 0
            while sent < raw.count {
                let wrote = send(descriptor, base + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
                if wrote > 0 {
                    sent += wrote
                } else if wrote < 0, errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}

/// A socket the agent could not set up.
public struct AgentSocketError: Error, Sendable, CustomStringConvertible {
    /// What failed, naming the path.
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    /// The text for a log line; it never holds key material or secrets.
    public var description: String { reason }
}
