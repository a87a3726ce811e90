import CSystemdBus

#if canImport(Glibc)
import Glibc
#endif

/// One client connection to a D-Bus bus (sd-bus), for one operation on one thread: opened by `init`,
/// flushed and closed when the object goes away. Nothing is shared between operations.
final class BusConnection {
    private let bus: OpaquePointer

    /// Connects to the bus at `address`, or to the system bus when nil (sd-bus then honours
    /// `DBUS_SYSTEM_BUS_ADDRESS`). The bus's own calls (Hello, AddMatch) wait at most `timeout`.
    init(address: String?, timeout: Duration) throws(BusFailure) {
        var opened: OpaquePointer?
        let result: Int32 =
            if let address {
                address.withCString { coffer_bus_open($0, Self.microseconds(timeout), &opened) }
            } else {
                coffer_bus_open(nil, Self.microseconds(timeout), &opened)
            }
        guard result >= 0, let opened else { throw BusFailure(code: result < 0 ? result : -ENOTCONN) }
        bus = opened
    }

    deinit {
        coffer_sd_bus_flush_close_unref(bus)
    }

    /// Calls `interface`.`member` on `path` at `destination`, with `argument` as its one string argument
    /// (none when nil), and returns the reply; waits at most `timeout`.
    func call(
        _ destination: String, path: String, interface: String, member: String, argument: String? = nil,
        timeout: Duration
    ) throws(BusFailure) -> BusMessage {
        var error = sd_bus_error()
        defer { coffer_sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let usec = Self.microseconds(timeout)
        let result: Int32 =
            if let argument {
                argument.withCString { coffer_bus_call(bus, destination, path, interface, member, $0, usec, &error, &reply) }
            } else {
                coffer_bus_call(bus, destination, path, interface, member, nil, usec, &error, &reply)
            }
        guard result >= 0, let reply else {
            if let reply { coffer_sd_bus_message_unref(reply) }
            throw BusFailure(code: result < 0 ? result : -EBADMSG, error: error)
        }
        return BusMessage(taking: reply)
    }

    /// Asks the bus for the messages matching the D-Bus match `rule`; ``nextMessage(before:)`` returns them.
    func addMatch(_ rule: String) throws(BusFailure) {
        let result = coffer_bus_add_match(bus, rule)
        guard result >= 0 else { throw BusFailure(code: result) }
    }

    /// The next message the bus delivers that no call was waiting for (a signal), or nil once `deadline`
    /// has passed without one.
    func nextMessage(before deadline: ContinuousClock.Instant) throws(BusFailure) -> BusMessage? {
        while ContinuousClock.now < deadline {
            var message: OpaquePointer?
            let processed = coffer_sd_bus_process(bus, &message)
            guard processed >= 0 else { throw BusFailure(code: processed) }
            if let message { return BusMessage(taking: message) }
            if processed > 0 { continue }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            let waited = coffer_sd_bus_wait(bus, Self.microseconds(remaining))
            guard waited >= 0 || waited == -EINTR else { throw BusFailure(code: waited) }
        }
        return nil
    }

    /// `duration` in microseconds, at least 1 (sd-bus reads 0 as "the default timeout").
    static func microseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        return UInt64(max(1, total))
    }
}
