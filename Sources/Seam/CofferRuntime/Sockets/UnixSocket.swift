import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the Glibc socket calls of the daemon, its clients and the ssh-agent.
///
/// Errors are `UnixSocket.Failure`, naming the call and the `errno`.
public enum UnixSocket {
    /// Creates, binds and listens on a Unix stream socket at `path` with file mode `mode`, replacing a
    /// stale socket file (never another kind of file, and never a socket something still listens on: that is
    /// `EADDRINUSE`, "in use").
    ///
    /// The socket is bound under a name of its own next to `path`, given `mode` before it listens (until then every
    /// connect is refused, whatever the file's mode), and renamed to `path` once it listens, so a client that finds
    /// the file can connect. (When that name does not fit a socket address, the socket is bound at `path` directly.)
    /// The process's umask is left alone: changing it, even for a moment, would widen or narrow what other threads
    /// create meanwhile.
    public static func listen(at path: String, mode: mode_t, backlog: Int32 = 128) throws -> Int32 {
        var status = stat()
        if lstat(path, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFSOCK else {
                throw Failure("bind \(path): a file that is not a socket is in the way", EEXIST)
            }
            if let live = try? connect(to: path, timeout: .milliseconds(200)) {
                close(live)
                throw Failure("bind \(path): in use", EADDRINUSE)
            }
        }
        let staging = "\(path).\(getpid()).new"
        let stagingFits = (try? socketAddress(staging)) != nil
        let boundPath = stagingFits ? staging : path
        if lstat(boundPath, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK { unlink(boundPath) }
        var address = try socketAddress(boundPath)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket", errno) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindError = errno
        guard bound == 0 else {
            close(descriptor)
            throw Failure("bind \(path)", bindError)
        }
        guard chmod(boundPath, mode) == 0, Glibc.listen(descriptor, backlog) == 0,
            boundPath == path || rename(boundPath, path) == 0
        else {
            let code = errno
            close(descriptor)
            if boundPath != path { unlink(boundPath) }
            throw Failure("listen \(path)", code)
        }
        return descriptor
    }

    /// Connects to the daemon's socket at `path`, waiting at most `timeout` for the daemon to accept (nil:
    /// as long as it takes). The socket returned is blocking.
    ///
    /// With a time-out the connect is non-blocking: a Unix socket whose listener's backlog is full (a
    /// stopped or overwhelmed daemon) refuses with `EAGAIN` rather than waiting, so the connect is tried
    /// again after a short pause (1 ms, doubling to 50 ms) until the time-out; `EINPROGRESS` is waited for
    /// with `poll`. A time-out throws ``Failure`` with `ETIMEDOUT`.
    public static func connect(to path: String, timeout: Duration? = nil) throws -> Int32 {
        let nonBlocking = timeout == nil ? 0 : Int32(SOCK_NONBLOCK.rawValue)
        var address = try socketAddress(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | nonBlocking, 0)
        guard descriptor >= 0 else { throw Failure("socket", errno) }
        let deadline = timeout.map { ContinuousClock.now + $0 }
        var pause = Duration.milliseconds(1)
        while true {
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if connected == 0 { break }
            let code = errno
            if code == EINTR { continue }
            guard let deadline, code == EAGAIN || code == EINPROGRESS else {
                close(descriptor)
                throw Failure("connect \(path)", code)
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else {
                close(descriptor)
                throw Failure("connect \(path)", ETIMEDOUT)
            }
            if code == EINPROGRESS {
                // Completes in the background: wait for writability, then read the result.
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&waiting, 1, milliseconds(left))
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if ready > 0, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 { break }
                close(descriptor)
                throw Failure("connect \(path)", ready == 0 ? ETIMEDOUT : (failure != 0 ? failure : errno))
            }
            // EAGAIN: the backlog is full; try again shortly.
            let nap = min(pause, left)
            usleep(UInt32(milliseconds(nap)) * 1000)
            pause = min(pause * 2, .milliseconds(50))
        }
        if nonBlocking != 0 {
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
        }
        return descriptor
    }

    /// Sets the send time-out: a write that cannot proceed (the peer stopped reading and the socket's
    /// buffer is full) fails after `duration`.
    public static func setSendTimeout(_ descriptor: Int32, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// `duration` in whole milliseconds, rounded up, for `poll` (at most `Int32.max`).
    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, duration > .zero else { return 0 }
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }

    /// Sets receive and send timeouts, so a stalled peer cannot hold a connection's thread forever.
    public static func setTimeouts(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
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
