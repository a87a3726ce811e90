import Foundation
import Logging
import PostgresFixture
import PostgresNIO
import Synchronization
import Testing

@testable import SyncServer

/// A device's operations on a real PostgreSQL cluster: compare-and-swap writes, change numbers that readers can
/// follow without skipping, cursors and tombstones, the device log and key shares.
@Suite("Sync server: records, changes, cursors and the device log", .timeLimit(.minutes(10)))
struct SyncServerSessionTests {
    /// A cluster with the schema and one account, a connection as that account, then everything stopped.
    private func withAccount(_ body: (PostgresServer, SyncAccount, SyncServerSession) async throws -> Void) async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let admin = try await SyncServerConnection.connect(to: endpoint(server, as: server.superuser), password: server.superuserPassword)
        let administration = SyncServerAdministration(admin)
        try await administration.prepare()
        let account = try await administration.addAccount()
        await admin.close()
        let device = try await SyncServerConnection.connect(to: endpoint(server, as: account.role), password: account.password)
        do {
            try await body(server, account, SyncServerSession(device))
        } catch {
            await device.close()
            throw error
        }
        await device.close()
    }

    private func endpoint(_ server: PostgresServer, as role: String) -> ServerEndpoint {
        ServerEndpoint(address: .unixSocket(path: server.unixSocketPath), username: role, database: server.database)
    }

    @Test func writesAreComparedAndSwappedOnTheVersion() async throws {
        try await withAccount { _, _, session in
            let zone = UUID()
            let record = UUID()
            await #expect(throws: SyncServerError.unknownZone(zone)) {
                _ = try await session.write(zone: zone, record: record, expectedVersion: nil, sealed: Data([1]))
            }
            try await session.createZone(zone)
            try await session.createZone(zone)  // again: nothing changes
            #expect(try await session.write(zone: zone, record: record, expectedVersion: nil, sealed: Data([1])) == .written(version: 1, change: 1))
            #expect(try await session.write(zone: zone, record: record, expectedVersion: 1, sealed: Data([2])) == .written(version: 2, change: 2))
            // A device that last saw version 1, and one that thinks the record is new, both lose and learn the truth.
            let current = SyncedRecord(zone: zone, record: record, version: 2, change: 2, sealed: Data([2]), deleted: false)
            #expect(try await session.write(zone: zone, record: record, expectedVersion: 1, sealed: Data([3])) == .conflict(current: current))
            #expect(try await session.write(zone: zone, record: record, expectedVersion: nil, sealed: Data([4])) == .conflict(current: current))
            #expect(try await session.write(zone: zone, record: UUID(), expectedVersion: 5, sealed: Data([5])) == .conflict(current: nil))
            // Conflicts consumed no change number.
            #expect(try await session.write(zone: zone, record: record, expectedVersion: 2, sealed: Data(), deleted: true) == .written(version: 3, change: 3))
            #expect(try await session.changes(zone: zone, after: 0).map(\.change) == [3])
            #expect(try await session.record(zone: zone, record: record)?.deleted == true)
        }
    }

    @Test func concurrentWritersGetEveryChangeNumberOnceAndReadersSkipNone() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let admin = try await SyncServerConnection.connect(
            to: endpoint(server, as: server.superuser), password: server.superuserPassword)
        try await SyncServerAdministration(admin).prepare()
        let account = try await SyncServerAdministration(admin).addAccount()
        await admin.close()
        let zone = UUID()
        let writers = 6
        let writesEach = 25
        let first = try await SyncServerConnection.connect(to: endpoint(server, as: account.role), password: account.password)
        try await SyncServerSession(first).createZone(zone)
        // A reader follows the zone while the writers write: what it has seen never has a gap behind it.
        let seen = Mutex<[Int64]>([])
        let reader = Task {
            let session = SyncServerSession(first)
            var cursor: Int64 = 0
            while cursor < Int64(writers * writesEach) {
                for change in try await session.changes(zone: zone, after: cursor).map(\.change) {
                    #expect(change == cursor + 1, "the reader skipped from \(cursor) to \(change)")
                    cursor = change
                    seen.withLock { $0.append(change) }
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        try await withThrowingTaskGroup(of: [Int64].self) { group in
            for _ in 0..<writers {
                group.addTask {
                    let connection = try await SyncServerConnection.connect(to: endpoint(server, as: account.role), password: account.password)
                    let session = SyncServerSession(connection)
                    var changes: [Int64] = []
                    for _ in 0..<writesEach {
                        guard case .written(_, let change) = try await session.write(zone: zone, record: UUID(), expectedVersion: nil, sealed: Data([7]))
                        else { throw SyncServerError.connection("a new record conflicted") }
                        changes.append(change)
                    }
                    await connection.close()
                    return changes
                }
            }
            var all: [Int64] = []
            for try await changes in group { all += changes }
            #expect(all.sorted() == Array(1...Int64(writers * writesEach)))
        }
        try await reader.value
        #expect(seen.withLock { $0 } == Array(1...Int64(writers * writesEach)))
        await first.close()
    }

    @Test func tombstonesStayUntilEveryCursorHasPassedThem() async throws {
        try await withAccount { _, _, session in
            let zone = UUID()
            try await session.createZone(zone)
            let laptop = UUID()
            let desktop = UUID()
            try await session.setCursor(device: laptop, zone: zone, change: 0)
            try await session.setCursor(device: desktop, zone: zone, change: 0)
            let record = UUID()
            _ = try await session.write(zone: zone, record: record, expectedVersion: nil, sealed: Data([1]))
            _ = try await session.write(zone: zone, record: record, expectedVersion: 1, sealed: Data(), deleted: true)
            #expect(try await session.collectTombstones(zone: zone) == 0)
            try await session.setCursor(device: laptop, zone: zone, change: 2)
            #expect(try await session.collectTombstones(zone: zone) == 0)
            // A cursor never moves back.
            try await session.setCursor(device: laptop, zone: zone, change: 1)
            try await session.setCursor(device: desktop, zone: zone, change: 2)
            #expect(try await session.collectTombstones(zone: zone) == 1)
            #expect(try await session.record(zone: zone, record: record) == nil)
            // A removed device no longer holds tombstones back.
            let other = UUID()
            _ = try await session.write(zone: zone, record: other, expectedVersion: nil, sealed: Data(), deleted: true)
            try await session.setCursor(device: laptop, zone: zone, change: 3)
            #expect(try await session.collectTombstones(zone: zone) == 0)
            try await session.removeCursors(device: desktop)
            #expect(try await session.collectTombstones(zone: zone) == 1)
        }
    }

    @Test func theDeviceLogTakesOneEntryPerPosition() async throws {
        try await withAccount { _, _, session in
            #expect(try await session.appendDeviceLog(position: 1, entry: Data("first".utf8)))
            #expect(try await session.appendDeviceLog(position: 1, entry: Data("rival".utf8)) == false)
            #expect(try await session.appendDeviceLog(position: 2, entry: Data("second".utf8)))
            let log = try await session.deviceLog()
            #expect(log.map(\.position) == [1, 2])
            #expect(log.map(\.entry) == [Data("first".utf8), Data("second".utf8)])
            #expect(try await session.deviceLog(after: 1).map(\.position) == [2])
        }
    }

    @Test func keySharesAreKeptPerZoneVersionAndDevice() async throws {
        try await withAccount { _, _, session in
            let zone = UUID()
            try await session.createZone(zone)
            let device = UUID()
            try await session.putKeyShare(zone: zone, keyVersion: 1, device: device, share: Data([1]))
            try await session.putKeyShare(zone: zone, keyVersion: 2, device: device, share: Data([2]))
            try await session.putKeyShare(zone: zone, keyVersion: 2, device: UUID(), share: Data([3]))
            let shares = try await session.keyShares(zone: zone, device: device)
            #expect(shares.map(\.keyVersion) == [1, 2])
            #expect(shares.map(\.share) == [Data([1]), Data([2])])
        }
    }
}

/// A flag one task sets and another reads.
private final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// Wake-ups: a device listening hears its account's writes, and not another account's.
@Suite("Sync server: wake-ups", .timeLimit(.minutes(2)))
struct SyncServerWakeUpTests {
    @Test func aListeningDeviceHearsItsAccountsWritesOnly() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        func endpoint(_ role: String) -> ServerEndpoint {
            ServerEndpoint(address: .unixSocket(path: server.unixSocketPath), username: role, database: server.database)
        }
        let admin = try await SyncServerConnection.connect(to: endpoint(server.superuser), password: server.superuserPassword)
        let administration = SyncServerAdministration(admin)
        try await administration.prepare()
        let mine = try await administration.addAccount()
        let theirs = try await administration.addAccount()
        await admin.close()
        let listening = try await SyncServerConnection.connect(to: endpoint(mine.role), password: mine.password)
        let myOtherDevice = try await SyncServerConnection.connect(to: endpoint(mine.role), password: mine.password)
        let stranger = try await SyncServerConnection.connect(to: endpoint(theirs.role), password: theirs.password)
        let myZone = UUID()
        let theirZone = UUID()
        try await SyncServerSession(myOtherDevice).createZone(myZone)
        try await SyncServerSession(stranger).createZone(theirZone)
        let ownWriteStarted = Flag()
        let heard = try await SyncServerSession(listening).listeningForWrites { wakeUps in
            let writers = Task {
                _ = try await SyncServerSession(stranger).write(zone: theirZone, record: UUID(), expectedVersion: nil, sealed: Data([1]))
                try await Task.sleep(for: .seconds(1))
                ownWriteStarted.set()
                _ = try await SyncServerSession(myOtherDevice).write(zone: myZone, record: UUID(), expectedVersion: nil, sealed: Data([2]))
            }
            var iterator = wakeUps.makeAsyncIterator()
            let woken = try await iterator.next() != nil
            // Read when woken: had the other account's write woken this device, its own write had not started yet.
            let afterOwnWrite = ownWriteStarted.isSet
            try await writers.value
            return woken && afterOwnWrite
        }
        #expect(heard, "the first wake-up came from this account's write, not the other account's")
        await listening.close()
        await myOtherDevice.close()
        await stranger.close()
    }
}
