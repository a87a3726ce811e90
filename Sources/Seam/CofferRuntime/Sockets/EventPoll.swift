import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A Linux `epoll` instance and the `eventfd` that wakes its waiter: the one thread that sleeps in
/// ``wait(timeout:into:)`` learns which registered descriptors are ready, each by the token it was
/// registered with; any thread may change a registration or ``wakeUp()`` the waiter.
///
/// Registrations may be one-shot (`EPOLLONESHOT`): once reported, a descriptor is not reported again
/// until its registration is changed, so that the thread it was handed to owns it meanwhile.
public final class EventPoll: Sendable {
    /// What a registration watches for besides hang-ups, which are always reported.
    public struct Interest: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Bytes to read.
        public static let read = Interest(rawValue: UInt32(COFFER_POLL_READ))
        /// Room to write.
        public static let write = Interest(rawValue: UInt32(COFFER_POLL_WRITE))
    }

    /// One ready registration.
    public struct Event: Sendable, Equatable {
        /// The token it was registered with (``wakeToken`` for a ``wakeUp()``).
        public let token: UInt64
        /// Bytes can be read (or the end of the stream).
        public let readable: Bool
        /// Bytes can be written.
        public let writable: Bool
        /// The peer closed its end, or the descriptor failed.
        public let hungUp: Bool
    }

    /// The token a wait reports after ``wakeUp()``.
    public static let wakeToken = UInt64.max

    private let descriptor: Int32
    private let wake: Int32

    /// A new instance, its wake-up descriptor registered.
    public init() throws(UnixSocket.Failure) {
        let descriptor = coffer_epoll_create()
        guard descriptor >= 0 else { throw UnixSocket.Failure("epoll_create1", errno) }
        let wake = coffer_wake_descriptor()
        guard wake >= 0 else {
            let code = errno
            close(descriptor)
            throw UnixSocket.Failure("eventfd", code)
        }
        guard coffer_epoll_watch(descriptor, wake, Self.wakeToken, UInt32(COFFER_POLL_READ), 0, 1) == 0 else {
            let code = errno
            close(wake)
            close(descriptor)
            throw UnixSocket.Failure("epoll_ctl", code)
        }
        self.descriptor = descriptor
        self.wake = wake
    }

    deinit {
        close(wake)
        close(descriptor)
    }

    /// Registers `socket` under `token`, watching `interest`; one-shot unless `oneShot` is false.
    public func add(_ socket: Int32, token: UInt64, interest: Interest, oneShot: Bool = true) throws(UnixSocket.Failure) {
        guard coffer_epoll_watch(descriptor, socket, token, interest.rawValue, oneShot ? 1 : 0, 1) == 0 else {
            throw UnixSocket.Failure("epoll_ctl", errno)
        }
    }

    /// Changes the registration of `socket` (one-shot) to watch `interest`, and re-enables it if it was
    /// reported: with an empty interest only hang-ups are reported.
    public func change(_ socket: Int32, token: UInt64, interest: Interest) throws(UnixSocket.Failure) {
        guard coffer_epoll_watch(descriptor, socket, token, interest.rawValue, 1, 0) == 0 else {
            throw UnixSocket.Failure("epoll_ctl", errno)
        }
    }

    /// Removes the registration of `socket` (before it is closed or handed elsewhere).
    public func remove(_ socket: Int32) {
        _ = coffer_epoll_forget(descriptor, socket)
    }

    /// Waits until a registration is ready, ``wakeUp()`` is called, or `timeout` passes (nil: no limit),
    /// and replaces `events` with what is ready (empty after a time-out). A pending wake-up is consumed
    /// and reported as ``wakeToken``. Throws when `epoll_wait` fails other than by a signal.
    public func wait(timeout: Duration?, into events: inout [Event]) throws(UnixSocket.Failure) {
        events.removeAll(keepingCapacity: true)
        let capacity = 64
        let milliseconds = timeout.map { Self.milliseconds($0) } ?? -1
        let (count, code) = withUnsafeTemporaryAllocation(of: UInt64.self, capacity: capacity) { tokens in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { ready in
                let count = coffer_epoll_wait(descriptor, tokens.baseAddress, ready.baseAddress, Int32(capacity), milliseconds)
                for index in 0..<max(0, Int(count)) {
                    if tokens[index] == Self.wakeToken {
                        var value: UInt64 = 0
                        _ = read(wake, &value, MemoryLayout<UInt64>.size)
                    }
                    events.append(
                        Event(
                            token: tokens[index], readable: ready[index] & UInt32(COFFER_POLL_READ) != 0,
                            writable: ready[index] & UInt32(COFFER_POLL_WRITE) != 0,
                            hungUp: ready[index] & UInt32(COFFER_POLL_HANGUP) != 0))
                }
                return (count, count < 0 ? errno : 0)
            }
        }
        if count < 0, code != EINTR { throw UnixSocket.Failure("epoll_wait", code) }
    }

    /// Makes the thread in ``wait(timeout:into:)`` return (or the next wait, if none waits now); from any thread.
    public func wakeUp() {
        var one: UInt64 = 1
        _ = write(wake, &one, MemoryLayout<UInt64>.size)
    }

    /// A time-out in whole milliseconds, rounded up so that a wait never ends before it.
    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, duration > .zero else { return 0 }
        let total = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: total)
    }
}
