import CSecretServiceBus
import CSystemdBus
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A client's connection to the session bus, calling the program that owns `org.freedesktop.secrets` now (by
/// its unique name, so a provider the bus would activate is never started, and every call reaches the same
/// process). It never takes a name. Used from one thread.
final class SourceConnection {
    private static let busPath = "/org/freedesktop/DBus"
    private static let busName = "org.freedesktop.DBus"
    private let bus: OpaquePointer
    /// The unique bus name of the provider (":1.7").
    let owner: String

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`), or to the bus at `address`, and finds the
    /// provider.
    init(address: String?) throws(SecretServiceError) {
        var opened: OpaquePointer?
        let result = address.map { address in address.withCString { coffer_secret_bus_open($0, &opened) } } ?? coffer_secret_bus_open(nil, &opened)
        guard result >= 0, let opened else {
            throw SecretServiceError("cannot connect to the session bus: \(String(cString: strerror(-result)))")
        }
        bus = opened
        do {
            owner = try Self.call(bus, Self.busName, Self.busPath, Self.busName, "GetNameOwner", timeout: 0) { out throws(BusReplyError) in
                try out.string(SecretServiceServer.busName)
            } reading: { answer throws(BusReplyError) in
                try answer.string()
            }
        } catch {
            coffer_sd_bus_flush_close_unref(opened)
            throw error.errorName == "org.freedesktop.DBus.Error.NameHasNoOwner"
                ? SecretServiceError("no Secret Service provider is running: nothing owns \(SecretServiceServer.busName)")
                : SecretServiceError("cannot find the Secret Service provider: \(error)")
        }
    }

    deinit {
        coffer_sd_bus_flush_close_unref(bus)
    }

    /// The executable of the provider's process (`/proc/PID/exe`), when the bus gives its process ID and the
    /// link can be read.
    func ownerExecutable() -> String? {
        ownerProcess().flatMap { Self.executable(of: "/proc/\($0)/exe") }
    }

    /// The command name of the provider's process (`/proc/PID/comm`, readable even for a process that is not
    /// dumpable, such as coffer-secret-service itself, whose executable link only root may read).
    func ownerCommandName() -> String? {
        ownerProcess().flatMap { Self.commandName(of: "/proc/\($0)/comm") }
    }

    /// The provider's process ID, as the bus gives it.
    private func ownerProcess() -> UInt32? {
        try? Self.call(
            bus, Self.busName, Self.busPath, Self.busName, "GetConnectionUnixProcessID", timeout: 0,
            { out throws(BusReplyError) in
                try out.string(owner)
            }, reading: { answer throws(BusReplyError) in try answer.uint32() })
    }

    /// The command name in the `comm` file at `path`, or nil.
    static func commandName(of path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8)).map { $0.trimmingCharacters(in: .newlines) }
    }

    /// The target of the link `path`, or nil.
    static func executable(of path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Calls `interface`.`member` on the provider's object `path`, with the arguments `arguments` writes, and
    /// returns what `reading` reads from the answer. `timeout` is in microseconds (0: sd-bus's 25 s).
    func call<T>(
        _ path: String, _ interface: String, _ member: String, timeout: UInt64 = 0,
        _ arguments: (BusWriter) throws(BusReplyError) -> Void, reading: (BusReader) throws(BusReplyError) -> T
    ) throws(SourceFailure) -> T {
        try Self.call(bus, owner, path, interface, member, timeout: timeout, arguments, reading: reading)
    }

    /// Reads the property `interface`.`name` of the object `path`, whose type is `signature`.
    func property<T>(
        _ path: String, _ interface: String, _ name: String, _ signature: String, reading: (BusReader) throws(BusReplyError) -> T
    ) throws(SourceFailure) -> T {
        try call(path, "org.freedesktop.DBus.Properties", "Get") { out throws(BusReplyError) in
            try out.string(interface)
            try out.string(name)
        } reading: { answer throws(BusReplyError) in
            try answer.enter("v", signature)
            let value = try reading(answer)
            try answer.exit()
            return value
        }
    }

    /// Catches the first `interface`.`member` signal the provider emits from `path` after `start` runs, and
    /// returns what `reading` reads from it; nil when none came within `timeout`.
    func awaitSignal<T>(
        _ path: String, _ interface: String, _ member: String, timeout: Duration, after start: () throws(SourceFailure) -> Void,
        reading: (BusReader) throws(BusReplyError) -> T
    ) throws(SourceFailure) -> T? {
        let caught = UnsafeMutablePointer<coffer_secret_caught>.allocate(capacity: 1)
        caught.initialize(to: coffer_secret_caught())
        var slot: OpaquePointer?
        defer {
            coffer_sd_bus_slot_unref(slot)
            if let message = caught.pointee.message { coffer_sd_bus_message_unref(message) }
            caught.deallocate()
        }
        let matched = coffer_secret_catch_signal(bus, owner, path, interface, member, caught, &slot)
        guard matched >= 0 else { throw .call("AddMatch", errorName: nil, result: matched) }
        try start()
        let deadline = ContinuousClock.now + timeout
        while caught.pointee.received == 0 {
            guard ContinuousClock.now < deadline else { return nil }
            let stepped = coffer_secret_bus_step(bus, 100_000)
            guard stepped >= 0 else { throw .call(member, errorName: nil, result: stepped) }
        }
        guard let message = caught.pointee.message else { return nil }
        do {
            return try reading(BusReader(message: message))
        } catch {
            throw SourceFailure("the \(member) signal is not what the interface says")
        }
    }

    private static func call<T>(
        _ bus: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ member: String, timeout: UInt64,
        _ arguments: (BusWriter) throws(BusReplyError) -> Void, reading: (BusReader) throws(BusReplyError) -> T
    ) throws(SourceFailure) -> T {
        var message: OpaquePointer?
        let made = coffer_secret_call_new(bus, destination, path, interface, member, &message)
        guard made >= 0, let message else { throw .call(member, errorName: nil, result: made) }
        do {
            try arguments(BusWriter(message: message))
        } catch {
            coffer_sd_bus_message_unref(message)
            throw SourceFailure("the \(member) call could not be built")
        }
        var reply: OpaquePointer?
        var errorName: UnsafeMutablePointer<CChar>?
        let called = coffer_secret_call(bus, message, timeout, &reply, &errorName)
        guard called >= 0, let reply else {
            let name = errorName.map { String(cString: $0) }
            free(errorName)
            throw .call(member, errorName: name, result: called < 0 ? called : -EIO)
        }
        defer { coffer_sd_bus_message_unref(reply) }
        do {
            return try reading(BusReader(message: reply))
        } catch {
            throw SourceFailure("the answer to \(member) is not what the interface says")
        }
    }
}
