import Foundation
import KeychainModel
import PostgresNIO
import SyncFormat
import Testing

@testable import SyncClient
@testable import SyncServer

/// The server as an attacker, and devices that disagree: what a device refuses, and how two devices settle one item.
@Suite("Sync: conflicts and a hostile server", .timeLimit(.minutes(10)))
struct SyncAttackerTests {
    /// Runs `sql` as the server's operator.
    private func operate(_ server: TestSyncServer, _ sql: String) async throws {
        try await server.asOperator { connection in
            _ = try await connection.connection.query(PostgresQuery(unsafeSQL: sql), logger: connection.logger).collect()
        }
    }

    private func liveRecords(_ server: TestSyncServer) async throws -> Int {
        try await server.asOperator { connection in
            try await connection.connection.query("SELECT count(*) FROM coffer_sync.records WHERE NOT deleted", logger: connection.logger)
                .collect().first?.decode(Int.self) ?? -1
        }
    }

    @Test func twoDevicesAddingOnePrimaryKeySettleOnTheSameItem() async throws {
        try await withTwoDevices { server, laptop, desktop in
            try laptop.add(genp("shared", "same", ["sync": true, "v_Data": secret("laptop's")]))
            try desktop.add(genp("shared", "same", ["sync": true, "v_Data": secret("desktop's")]))
            _ = try await laptop.sync.syncNow()
            let settling = try await desktop.sync.syncNow()
            #expect(settling.conflicts == 1)
            _ = try await laptop.sync.syncNow()
            _ = try await desktop.sync.syncNow()
            let onLaptop = laptop.data(genp("shared", "same", ["sync": true]))
            #expect(onLaptop == desktop.data(genp("shared", "same", ["sync": true])))
            #expect(try onLaptop.get() == Data("laptop's".utf8) || onLaptop.get() == Data("desktop's".utf8))
            #expect(try await liveRecords(server) == 1)
            // The item that lost is listed, with its data, on the device that held it.
            let loser = try onLaptop.get() == Data("laptop's".utf8) ? desktop : laptop
            let conflicts = try loser.sync.conflicts()
            #expect(conflicts.count == 1)
            #expect(conflicts.first?.record.secret == Data(try onLaptop.get() == Data("laptop's".utf8) ? "desktop's".utf8 : "laptop's".utf8))
        }
    }

    @Test func anUnsentLocalChangeLosesToTheServersNewerVersionAndIsListed() async throws {
        try await withTwoDevices { _, laptop, desktop in
            try laptop.add(genp("edit", "both", ["sync": true, "v_Data": secret("v1")]))
            _ = try await laptop.sync.syncNow()
            _ = try await desktop.sync.syncNow()
            try laptop.update(genp("edit", "both", ["sync": true]), ["v_Data": secret("laptop-v2")])
            try desktop.update(genp("edit", "both", ["sync": true]), ["v_Data": secret("desktop-v2")])
            _ = try await laptop.sync.syncNow()
            let report = try await desktop.sync.syncNow()
            #expect(report.conflicts == 1)
            _ = try await laptop.sync.syncNow()
            #expect(desktop.data(genp("edit", "both", ["sync": true])) == .success(Data("laptop-v2".utf8)))
            #expect(laptop.data(genp("edit", "both", ["sync": true])) == .success(Data("laptop-v2".utf8)))
            #expect(try desktop.sync.conflicts().map(\.record.secret) == [Data("desktop-v2".utf8)])
        }
    }

    @Test func changedAndSwappedRecordsAreRefusedNeverApplied() async throws {
        try await withTwoDevices { server, laptop, desktop in
            try laptop.add(genp("tamper", "one", ["sync": true, "v_Data": secret("first")]))
            try laptop.add(genp("tamper", "two", ["sync": true, "v_Data": secret("second")]))
            try laptop.add(genp("tamper", "three", ["sync": true, "v_Data": secret("third")]))
            _ = try await laptop.sync.syncNow()
            // One body changed in its last byte; two bodies swapped between records.
            try await operate(
                server,
                """
                UPDATE coffer_sync.records SET sealed = overlay(sealed placing '\\xff'::bytea from length(sealed))
                WHERE change = 1
                """)
            try await operate(
                server,
                """
                WITH a AS (SELECT sealed FROM coffer_sync.records WHERE change = 2), b AS (SELECT sealed FROM coffer_sync.records WHERE change = 3)
                UPDATE coffer_sync.records r SET sealed = CASE WHEN r.change = 2 THEN (SELECT sealed FROM b) ELSE (SELECT sealed FROM a) END
                WHERE r.change IN (2, 3)
                """)
            let report = try await desktop.sync.syncNow()
            #expect(report.refused == 3)
            #expect(report.applied == 0)
            for account in ["one", "two", "three"] {
                #expect(desktop.data(genp("tamper", account, ["sync": true])) == .failure(.itemNotFound))
            }
        }
    }

    @Test func aRolledBackRecordIsRefused() async throws {
        try await withTwoDevices { server, laptop, desktop in
            try laptop.add(genp("rollback", "item", ["sync": true, "v_Data": secret("old")]))
            _ = try await laptop.sync.syncNow()
            let old = try await server.asOperator { connection in
                try await connection.connection.query("SELECT sealed FROM coffer_sync.records", logger: connection.logger).collect().first?.decode(Data.self)
            }
            try laptop.update(genp("rollback", "item", ["sync": true]), ["v_Data": secret("new")])
            _ = try await laptop.sync.syncNow()
            _ = try await desktop.sync.syncNow()
            #expect(desktop.data(genp("rollback", "item", ["sync": true])) == .success(Data("new".utf8)))
            // The server puts version 1 back, as a new change.
            let hex = try #require(old).map { String(format: "%02x", $0) }.joined()
            try await operate(
                server,
                """
                UPDATE coffer_sync.zones SET change_counter = change_counter + 1;
                """)
            try await operate(
                server,
                """
                UPDATE coffer_sync.records r SET version = 1, sealed = '\\x\(hex)'::bytea,
                change = (SELECT change_counter FROM coffer_sync.zones z WHERE z.zone = r.zone AND z.account = r.account)
                """)
            let report = try await desktop.sync.syncNow()
            #expect(report.refused == 1)
            #expect(desktop.data(genp("rollback", "item", ["sync": true])) == .success(Data("new".utf8)))
        }
    }

    @Test func aDeviceTheServerAddsIsNeverTrusted() async throws {
        try await withTwoDevices { server, laptop, _ in
            // The operator signs an entry with a device of its own and appends it to the log.
            let intruder = try DeviceIdentity(name: "intruder")
            let entries = try await server.asOperator { connection in
                try await connection.connection.query("SELECT position, entry FROM coffer_sync.device_log ORDER BY position", logger: connection.logger)
                    .collect().map { try $0.decode((Int64, Data).self) }
            }
            let last = try DeviceLogEntry(encoded: try #require(entries.last).1)
            let forged = try DeviceLogEntry(position: last.position + 1, previousHash: last.hash, change: .add(intruder.publicIdentity), signedBy: intruder)
            let hex = forged.encoded.map { String(format: "%02x", $0) }.joined()
            try await operate(
                server,
                "INSERT INTO coffer_sync.device_log (account, position, entry) SELECT account, \(forged.position), '\\x\(hex)'::bytea FROM coffer_sync.accounts"
            )
            await #expect(throws: SyncError.untrustedServer("the device log: \(DeviceLogError.untrustedSigner(position: forged.position))")) {
                _ = try await laptop.sync.syncNow()
            }
        }
    }

    @Test func tombstonesAreCollectedOnceEveryDeviceHasSeenThem() async throws {
        try await withTwoDevices { server, laptop, desktop in
            try laptop.add(genp("gone", "soon", ["sync": true, "v_Data": secret("x")]))
            _ = try await laptop.sync.syncNow()
            _ = try await desktop.sync.syncNow()
            try laptop.delete(genp("gone", "soon", ["sync": true]))
            _ = try await laptop.sync.syncNow()
            let tombstones = {
                try await server.asOperator { connection in
                    try await connection.connection.query("SELECT count(*) FROM coffer_sync.records WHERE deleted", logger: connection.logger)
                        .collect().first?.decode(Int.self) ?? -1
                }
            }
            #expect(try await tombstones() == 1)
            _ = try await desktop.sync.syncNow()
            #expect(desktop.data(genp("gone", "soon", ["sync": true])) == .failure(.itemNotFound))
            #expect(try await tombstones() == 0)
        }
    }

    @Test func aLockedDeviceCatchesUpAfterItIsUnlocked() async throws {
        try await withTwoDevices { _, laptop, desktop in
            let passcode = SecretBytes(copying: Array("2468".utf8))
            try desktop.keychain.statusCalls.setPasscode(passcode)
            try desktop.keychain.statusCalls.lock()
            try laptop.add(genp("locked", "when-unlocked", ["sync": true, "v_Data": secret("later")]))
            try laptop.add(genp("locked", "after-first-unlock", ["sync": true, "pdmn": "ck", "v_Data": secret("now")]))
            _ = try await laptop.sync.syncNow()
            let locked = try await desktop.sync.syncNow()
            #expect(locked.waiting == 1 && locked.applied == 1)
            try desktop.keychain.statusCalls.unlock(passcode: passcode)
            let unlocked = try await desktop.sync.syncNow()
            #expect(unlocked.applied == 1 && unlocked.waiting == 0)
            #expect(desktop.data(genp("locked", "when-unlocked", ["sync": true])) == .success(Data("later".utf8)))
        }
    }
}
