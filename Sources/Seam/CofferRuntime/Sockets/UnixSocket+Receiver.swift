import CCofferSystem
import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension UnixSocket {
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
            if let spun = try spin(descriptor, spinning, keepPolling, body) { return spun }
            return try sleepingReceive(descriptor, body)
        }

        /// Like ``receive(_:spinning:while:_:)``, but sleeps at most `timeout` (measured after the
        /// polling) for bytes to come: nil, without calling `body`, when none came in that time.
        public func receive<T>(
            _ descriptor: Int32, spinning: Duration = .zero, timeout: Duration,
            _ body: (UnsafeRawBufferPointer?) throws -> T
        ) rethrows -> T? {
            if let spun = try spin(descriptor, spinning, { true }, body) { return spun }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let deadline = ContinuousClock.now + timeout
            while true {
                let ready = poll(&waiting, 1, UnixSocket.milliseconds(deadline - ContinuousClock.now))
                if ready > 0 { break }
                if ready == 0 { return nil }
                if errno != EINTR { return try body(nil) }
            }
            return try sleepingReceive(descriptor, body)
        }

        /// Polls without sleeping for up to `spinning`; nil when nothing came.
        private func spin<T>(
            _ descriptor: Int32, _ spinning: Duration, _ keepPolling: () -> Bool, _ body: (UnsafeRawBufferPointer?) throws -> T
        ) rethrows -> T? {
            guard spinning > .zero else { return nil }
            let deadline = ContinuousClock.now + spinning
            repeat {
                let received = recv(descriptor, storage.baseAddress, storage.count, Int32(MSG_DONTWAIT))
                if received >= 0 { return try deliver(received, body) }
                if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR { return try body(nil) }
                // Give the core to any thread that is ready to run (the peer, perhaps) before polling again.
                sched_yield()
            } while ContinuousClock.now < deadline && keepPolling()
            return nil
        }

        private func sleepingReceive<T>(_ descriptor: Int32, _ body: (UnsafeRawBufferPointer?) throws -> T) rethrows -> T {
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
}
