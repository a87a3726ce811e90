import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the Glibc socket calls the daemon and its clients use.
///
/// Errors are `UnixSocket.Failure`, naming the call and the `errno`.
public enum UnixSocket {
    /// Creates, binds and listens on a Unix stream socket at `path` with file mode `mode`, replacing a
    /// stale socket file (never another kind of file).
    public static func listen(at path: String, mode: mode_t, backlog: Int32 = 128) throws -> Int32 {
        var status = stat()
        if lstat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFSOCK else {
                throw Failure("bind \(path): a file that is not a socket is in the way", EEXIST)
            }
            unlink(path)
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket", errno) }
        var address = try socketAddress(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            close(descriptor)
            throw Failure("bind \(path)", code)
        }
        guard chmod(path, mode) == 0, Glibc.listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw Failure("listen \(path)", code)
        }
        return descriptor
    }

    /// Connects to the daemon's socket at `path`.
    public static func connect(to path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket", errno) }
        var address = try socketAddress(path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw Failure("connect \(path)", code)
        }
        return descriptor
    }

    /// Sets receive and send timeouts, so a stalled peer cannot hold a connection's thread forever.
    public static func setTimeouts(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes all of `bytes`; false when the peer is gone or the write timed out.
    public static func writeAll(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> Bool {
        send(descriptor, bytes) == .complete
    }

    /// How much of a ``send(_:_:)`` reached the socket.
    public enum SendOutcome: Sendable, Equatable {
        /// Every byte.
        case complete
        /// Not one byte: the peer is gone (or the write timed out) before anything was written.
        case nothing
        /// Some bytes, not all: the peer may have seen part of the message.
        case partial
    }

    /// Writes all of `bytes`, saying how much was written when the peer goes away.
    public static func send(_ descriptor: Int32, _ bytes: some ContiguousBytes) -> SendOutcome {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0 {
                    if errno == EINTR { continue }
                    return offset == 0 ? .nothing : .partial
                }
                offset += written
            }
            return .complete
        }
    }

    /// Receives into one buffer kept for the life of a connection (a read allocates nothing).
    ///
    /// `receive(_:spinning:)` can first poll without sleeping: a thread asleep in `recv` must be woken by
    /// the peer's `send`, which on a virtual machine costs tens of microseconds (an inter-processor
    /// interrupt through the hypervisor), more than many requests take to answer. Polling for a bounded
    /// time first lets a quick answer be picked up by a thread that never slept.
    public struct Receiver: ~Copyable {
        private let storage: UnsafeMutableRawBufferPointer

        /// A receiver reading at most `capacity` bytes at a time.
        public init(capacity: Int = 1 << 16) {
            storage = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit {
            // Received bytes may include secrets (a response's data, a passcode in a request).
            coffer_secure_zero(storage.baseAddress, storage.count)
            storage.deallocate()
        }

        /// Waits for bytes on `descriptor` (polling for up to `spinning` first, for as long as `keepPolling`
        /// says yes, then sleeping until they come or the socket's receive timeout passes) and hands them to
        /// `body`, valid only during the call: an empty buffer at end of stream; `nil` when the read failed
        /// or timed out.
        public func receive<T>(
            _ descriptor: Int32, spinning: Duration = .zero, while keepPolling: () -> Bool = { true },
            _ body: (UnsafeRawBufferPointer?) throws -> T
        ) rethrows -> T {
            if spinning > .zero {
                let deadline = ContinuousClock.now + spinning
                repeat {
                    let received = recv(descriptor, storage.baseAddress, storage.count, Int32(MSG_DONTWAIT))
                    if received >= 0 { return try deliver(received, body) }
                    if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return try body(nil) }
                    // Give the core to any thread that is ready to run (the peer, perhaps) before polling again.
                    sched_yield()
                } while ContinuousClock.now < deadline && keepPolling()
            }
            while true {
                let received = recv(descriptor, storage.baseAddress, storage.count, 0)
                if received >= 0 { return try deliver(received, body) }
                if errno != EINTR { return try body(nil) }
            }
        }

        private func deliver<T>(_ count: Int, _ body: (UnsafeRawBufferPointer?) throws -> T) rethrows -> T {
            defer { coffer_secure_zero(storage.baseAddress, count) }
            return try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
        }
    }

    /// A failed socket call.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The call (and path) that failed.
        public let call: String
        /// The `errno` it left.
        public let code: Int32

        init(_ call: String, _ code: Int32) {
            self.call = call
            self.code = code
        }

        public var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    private static func socketAddress(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw Failure("socket path too long: \(path)", ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}
