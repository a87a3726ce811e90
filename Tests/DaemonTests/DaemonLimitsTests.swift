import CofferTestSupport
import Foundation
import KeychainClient
import KeychainModel
import Keystore
import Query
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// cofferd's limits seen from one user's side: stalled frames are closed, frames beyond the bytes in
/// flight are refused at their header, and a full disk (below the reserve) refuses writes while reads,
/// deletes and unlocking go on.
@Suite("cofferd limits, one user", .serialized, .timeLimit(.minutes(10)))
struct DaemonLimitsTests {
    /// The header of a frame announcing the largest payload a request may have (17 MiB).
    static let largestHeader: [UInt8] = Array("CFRP".utf8) + [0, 1] + withUnsafeBytes(of: UInt32(17 << 20).bigEndian, Array.init)

    /// A raw connection with a receive time-out.
    static func connect(_ daemon: DaemonProcess, timeout seconds: Int = 5) throws -> Int32 {
        let descriptor = try DaemonProcess.connect(daemon.socketPath)
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    @discardableResult
    static func send(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Whether the daemon closed the connection (a read sees the end) within the receive time-out.
    static func closedByDaemon(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private func item(_ account: String, _ secret: String? = nil) -> QueryDictionary {
        var query: QueryDictionary = ["class": "genp", "svce": "limits", "acct": .string(account)]
        if let secret { query.entries["v_Data"] = .data(Data(secret.utf8)) }
        return query
    }

    @Test func aConnectionSilentInsideAFrameIsClosedAfterTheTimeOut() throws {
        let daemon = try DaemonProcess(extraArguments: ["--frame-timeout", "1"])
        let stalled = try Self.connect(daemon, timeout: 10)
        defer { close(stalled) }
        let idle = try Self.connect(daemon, timeout: 3)
        defer { close(idle) }
        Self.send(stalled, Self.largestHeader + [1, 2, 3])
        let started = ContinuousClock.now
        #expect(Self.closedByDaemon(stalled), "the stalled connection is closed")
        #expect(ContinuousClock.now - started < .seconds(8))
        // A connection idle between frames is not closed by the frame time-out.
        #expect(!Self.closedByDaemon(idle))
        #expect(errno == EAGAIN || errno == EWOULDBLOCK)
        _ = try daemon.client().statusCalls.add(item("after", "x"))
        #expect(daemon.terminate() == 0)
    }

    @Test func framesBeyondTheBytesInFlightAreRefusedAtTheirHeader() throws {
        let daemon = try DaemonProcess(extraArguments: ["--max-bytes-in-flight-per-user", "40"])
        let client = daemon.client()
        _ = try client.statusCalls.add(item("kept", "value"))
        // Two stalled 17 MiB frames fit in 40 MiB; the third is refused as soon as its header arrives.
        let first = try Self.connect(daemon, timeout: 2)
        let second = try Self.connect(daemon, timeout: 2)
        let third = try Self.connect(daemon, timeout: 5)
        defer { [second, third].forEach { close($0) } }
        Self.send(first, Self.largestHeader + [0])
        Self.send(second, Self.largestHeader + [0])
        usleep(200_000)
        Self.send(third, Self.largestHeader + [0])
        #expect(Self.closedByDaemon(third))
        #expect(!Self.closedByDaemon(first))
        #expect(!Self.closedByDaemon(second))
        // The same user's small requests still fit beside them.
        var find = item("kept")
        find.entries["r_Data"] = true
        #expect(try client.statusCalls.copyMatching(find) == .data(Data("value".utf8)))
        // Closing a stalled frame gives its bytes back.
        close(first)
        usleep(200_000)
        let fourth = try Self.connect(daemon, timeout: 2)
        defer { close(fourth) }
        Self.send(fourth, Self.largestHeader + [0])
        #expect(!Self.closedByDaemon(fourth))
        #expect(daemon.terminate() == 0)
    }

    @Test func belowTheFreeSpaceReserveWritesAreRefusedButReadsDeletesAndUnlocksGoOn() throws {
        let setUp = try DaemonProcess()
        let folder = KeychainFolder(url: setUp.keychainFolder())
        _ = try setUp.client().statusCalls.add(item("kept", "value"))
        #expect(setUp.terminate() == 0)
        try Keystore.open(folder: folder).setPasscode(SecretBytes(copying: Array("1234".utf8)), kdf: .insecureForTesting)
        // A reserve larger than any disk: the file system is "full".
        let daemon = try DaemonProcess(extraArguments: ["--free-space-reserve", "\(1 << 40)"], directory: setUp.directory)
        let client = daemon.client()
        try client.statusCalls.unlock(passcode: SecretBytes(copying: Array("1234".utf8)))
        #expect(throws: KeychainStatus.diskFull) { _ = try client.statusCalls.add(item("new", "x")) }
        #expect(throws: KeychainStatus.diskFull) {
            try client.statusCalls.update(item("kept"), attributesToUpdate: ["v_Data": .data(Data("y".utf8))])
        }
        guard case .failure(let status, let reason) = client.sendBlocking(.add(item("new", "x"))) else {
            Issue.record("expected a refusal with a reason")
            return
        }
        #expect(status == .diskFull)
        #expect(reason.contains("reserve"))
        var find = item("kept")
        find.entries["r_Data"] = true
        #expect(try client.statusCalls.copyMatching(find) == .data(Data("value".utf8)))
        try client.statusCalls.lock()
        try client.statusCalls.unlock(passcode: SecretBytes(copying: Array("1234".utf8)))
        try client.statusCalls.delete(item("kept"))
        #expect(daemon.terminate() == 0)
    }
}
