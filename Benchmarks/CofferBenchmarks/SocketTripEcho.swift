import Foundation
import KeychainSelection

#if canImport(Glibc)
import Glibc
#endif

/// A round trip through a Unix socket to a thread of this process that echoes what it reads, both sides polling
/// (`MSG_DONTWAIT`, yielding between looks) as cofferd's worker and the client's reader do. ``ItemsBenchmark`` makes
/// one between embedded finds to tell what a socket round trip costs the find itself (caches the kernel's socket
/// path takes over) apart from what it costs on its own.
final class SocketTripEcho {
    private let near: Int32
    private let far: Int32
    private let echoing: Thread
    private var message = [UInt8](repeating: 1, count: 200)

    /// A socket pair and the thread echoing on its far end.
    init() throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        (near, far) = (pair[0], pair[1])
        echoing = Thread { [far] in Self.echo(on: far) }
        echoing.start()
    }

    deinit {
        // The echoing thread reads the end of the stream and returns; it closes its end itself.
        shutdown(near, Int32(SHUT_RDWR))
        close(near)
    }

    /// Sends the 200-byte message and waits, polling, until it has come back whole.
    func trip() {
        _ = message.withUnsafeBytes { send(near, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received = 0
        while received < message.count {
            let count = message.withUnsafeMutableBytes { recv(near, $0.baseAddress! + received, $0.count - received, Int32(MSG_DONTWAIT)) }
            if count > 0 { received += count } else if count == 0 { return } else { sched_yield() }
        }
    }

    private static func echo(on socket: Int32) {
        defer { close(socket) }
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 { return }
            if count < 0 {
                if errno != EAGAIN, errno != EWOULDBLOCK, errno != EINTR { return }
                sched_yield()
                continue
            }
            _ = buffer.withUnsafeBytes { send(socket, $0.baseAddress, count, Int32(MSG_NOSIGNAL)) }
        }
    }
}

extension SocketTripEcho {
    /// Finds (data) on `keychain` for `seconds`, in turns of 100 finds back to back and 100 finds each followed by a
    /// socket round trip; prints the median of each find, of each find made after a trip, and of each trip.
    static func findsBetweenTrips(_ keychain: EmbeddedKeychain, seconds: Int) throws {
        let echo = try SocketTripEcho()
        let clock = ContinuousClock()
        var (alone, afterTrip, trips) = ([Duration](), [Duration](), [Duration]())
        func find() throws { _ = try keychain.blocking.copyMatching(ItemsBenchmark.findQuery(Int.random(in: 0..<1_000), returning: "r_Data")) }
        let end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            for _ in 0..<100 { alone.append(try clock.measure(find)) }
            for _ in 0..<100 {
                trips.append(clock.measure(echo.trip))
                afterTrip.append(try clock.measure(find))
            }
        }
        func median(_ samples: [Duration]) -> String { Measurement.format(Measurement(name: "", perOperation: samples).median) }
        print(
            """
            find loop with socket round trips: \(alone.count + afterTrip.count) finds; median find back to back \(median(alone)), \
            after a round trip \(median(afterTrip)); median round trip \(median(trips))
            """)
    }
}
