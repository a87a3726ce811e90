import Foundation
import KeychainModel
import Testing

@testable import SyncClient

/// Background sync as the daemon runs it: a change on one device reaches the other without anyone asking, through
/// the server's wake-up; a server that goes away is tried again and the devices converge once it is back.
@Suite("Sync: in the background", .timeLimit(.minutes(5)))
struct BackgroundSyncTests {
    /// Waits up to `seconds` for `condition`.
    private func eventually(_ seconds: Double = 20, _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    @Test func aChangeReachesTheOtherDeviceWithoutAsking() async throws {
        try await withTwoDevices { _, laptop, desktop in
            let tasks = [laptop, desktop].map { device in Task { await BackgroundSync(sync: device.sync, pollInterval: .seconds(600)).run() } }
            defer { tasks.forEach { $0.cancel() } }

            try laptop.add(genp("background", "one", ["sync": true, "v_Data": secret("pushed")]))
            #expect(try await eventually { desktop.data(genp("background", "one", ["sync": true])) == .success(Data("pushed".utf8)) })
            try desktop.update(genp("background", "one", ["sync": true]), ["v_Data": secret("and back")])
            #expect(try await eventually { laptop.data(genp("background", "one", ["sync": true])) == .success(Data("and back".utf8)) })
            try laptop.delete(genp("background", "one", ["sync": true]))
            #expect(try await eventually { desktop.data(genp("background", "one", ["sync": true])) == .failure(.itemNotFound) })
        }
    }

    @Test func devicesConvergeAfterTheServerComesBack() async throws {
        try await withTwoDevices { server, laptop, desktop in
            let (events, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
            let tasks = [
                Task { await BackgroundSync(sync: laptop.sync, pollInterval: .seconds(1), events: continuation).run() },
                Task { await BackgroundSync(sync: desktop.sync, pollInterval: .seconds(1)).run() },
            ]
            defer { tasks.forEach { $0.cancel() } }
            try await Task.sleep(for: .milliseconds(500))

            // The network is cut: PostgreSQL stops. Writes go on locally and wait.
            try server.cluster.pause()
            for index in 0..<20 { try laptop.add(genp("offline", "item-\(index)", ["sync": true, "v_Data": secret("\(index)")])) }
            var failed = false
            for await event in events {
                if case .failed = event {
                    failed = true
                    break
                }
            }
            #expect(failed)
            try server.cluster.resume()
            #expect(
                try await eventually(60) { (0..<20).allSatisfy { desktop.data(genp("offline", "item-\($0)", ["sync": true])) == .success(Data("\($0)".utf8)) } }
            )
        }
    }
}
