#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes on a descriptor bounded by a ``Deadline``: every wait is a `poll` that ends at it.
enum DescriptorIO {
    /// What reading one byte gave.
    enum ByteRead {
        /// The byte.
        case byte(UInt8)
        /// The other side closed (or the read failed): nothing more will come.
        case end
        /// The deadline passed first.
        case timedOut
    }

    /// What writing gave.
    enum WriteOutcome {
        /// Every byte was written.
        case written
        /// The other side no longer reads.
        case closed
        /// The deadline passed first.
        case timedOut
    }

    /// Waits until `descriptor` is ready for `events` (or has hung up); false when the deadline passes first.
    static func waitUntilReady(_ descriptor: Int32, for events: Int16, until deadline: Deadline) -> Bool {
        while true {
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, deadline.pollMilliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { return true }  // Let the read or write that follows report the failure.
        }
    }

    /// Reads one byte, waiting no later than `deadline`. The caller clears what it keeps.
    static func readByte(from descriptor: Int32, until deadline: Deadline) -> ByteRead {
        var byte: UInt8 = 0
        defer { byte = 0 }
        while true {
            guard waitUntilReady(descriptor, for: Int16(POLLIN), until: deadline) else { return .timedOut }
            let count = read(descriptor, &byte, 1)
            if count == 1 { return .byte(byte) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return .end
        }
    }

    /// Writes all of `bytes`, waiting no later than `deadline`. SIGPIPE is held back on this thread while
    /// it writes, so a program that went away is a `.closed` outcome, never the death of the caller.
    static func writeAll(_ bytes: [UInt8], to descriptor: Int32, until deadline: Deadline) -> WriteOutcome {
        var offset = 0
        while offset < bytes.count {
            guard waitUntilReady(descriptor, for: Int16(POLLOUT), until: deadline) else { return .timedOut }
            let written = bytes[offset...].withUnsafeBytes { withoutBrokenPipeSignal(descriptor, $0) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                return .closed
            }
        }
        return .written
    }

    /// `write` with SIGPIPE blocked on the calling thread; a SIGPIPE this write raised is taken back from
    /// the thread's pending signals before the mask is restored. `errno` is the write's.
    private static func withoutBrokenPipeSignal(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previousMask)
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }
        var pendingBefore = sigset_t()
        sigpending(&pendingBefore)
        let wasPending = sigismember(&pendingBefore, SIGPIPE) == 1
        let written = write(descriptor, bytes.baseAddress, bytes.count)
        let writeError = errno
        if written < 0, writeError == EPIPE, !wasPending {
            var now = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&brokenPipe, nil, &now) < 0, errno == EINTR {}
        }
        errno = writeError
        return written
    }
}
