import Foundation
import KeychainModel
import PostgresNIO
import SyncFormat
import Testing

@testable import SyncClient
@testable import SyncServer

/// Joining with a pairing code approved on a trusted device, three devices in step, and removing one.
@Suite("Sync: pairing, three devices, removal", .timeLimit(.minutes(10)))
struct PairingAndRemovalTests {
    /// Joins `device` to the account `trusted` belongs to, through a pairing code.
    private func pair(_ device: TestDevice, name: String, approvedBy trusted: TestDevice, server: TestSyncServer) async throws {
        let pending = try await device.sync.requestToJoin(server: server.endpoint, password: server.account.password, deviceName: name)
        async let joined: Void = device.sync.completeJoin(pending, timeout: .seconds(60))
        let added = try await trusted.sync.approve(code: try PairingCode(text: pending.code.text.lowercased()))
        #expect(added.name == name)
        try await joined
    }

    @Test func aDeviceJoinsWithTheCodeAndThreeDevicesStayInStep() async throws {
        let server = try await TestSyncServer.start()
        defer { server.stop() }
        let laptop = try TestDevice()
        defer { laptop.removeFolder() }
        _ = try await laptop.sync.setUp(server: server.endpoint, password: server.account.password, deviceName: "laptop")
        let desktop = try TestDevice()
        defer { desktop.removeFolder() }
        let phone = try TestDevice()
        defer { phone.removeFolder() }
        try await pair(desktop, name: "desktop", approvedBy: laptop, server: server)
        try await pair(phone, name: "phone", approvedBy: desktop, server: server)
        #expect(try await phone.sync.devices().map(\.name) == ["desktop", "laptop", "phone", "recovery key"])
        #expect(try await phone.sync.devices().filter(\.isThisDevice).map(\.name) == ["phone"])

        try laptop.add(genp("three", "from-laptop", ["sync": true, "v_Data": secret("L")]))
        try desktop.add(genp("three", "from-desktop", ["sync": true, "v_Data": secret("D")]))
        try phone.add(genp("three", "from-phone", ["sync": true, "v_Data": secret("P")]))
        for _ in 0..<2 {
            for device in [laptop, desktop, phone] { _ = try await device.sync.syncNow() }
        }
        for device in [laptop, desktop, phone] {
            #expect(device.data(genp("three", "from-laptop", ["sync": true])) == .success(Data("L".utf8)))
            #expect(device.data(genp("three", "from-desktop", ["sync": true])) == .success(Data("D".utf8)))
            #expect(device.data(genp("three", "from-phone", ["sync": true])) == .success(Data("P".utf8)))
        }
    }

    @Test func aWrongOrReusedCodeIsRefused() async throws {
        let server = try await TestSyncServer.start()
        defer { server.stop() }
        let laptop = try TestDevice()
        defer { laptop.removeFolder() }
        _ = try await laptop.sync.setUp(server: server.endpoint, password: server.account.password, deviceName: "laptop")
        #expect(throws: SyncError.self) { _ = try PairingCode(text: "12345") }
        #expect(throws: SyncError.self) { _ = try PairingCode(text: "ABCDE-FGHI!") }
        await #expect(throws: SyncError.self) { _ = try await laptop.sync.approve(code: PairingCode()) }
        // A request the server forged (without the code) is refused by the approver.
        let desktop = try TestDevice()
        defer { desktop.removeFolder() }
        let pending = try await desktop.sync.requestToJoin(server: server.endpoint, password: server.account.password, deviceName: "desktop")
        let intruder = try DeviceIdentity(name: "intruder")
        try await server.asOperator { connection in
            let forged = intruder.publicIdentity.encoded + Data(count: 32)
            let hex = forged.map { String(format: "%02x", $0) }.joined()
            _ = try await connection.connection.query(
                PostgresQuery(unsafeSQL: "UPDATE coffer_sync.pairings SET request = '\\x\(hex)'::bytea"), logger: connection.logger
            ).collect()
        }
        await #expect(throws: SyncError.untrustedServer("the pairing request was not made with this code")) {
            _ = try await laptop.sync.approve(code: pending.code)
        }
        #expect(try await laptop.sync.devices().map(\.name) == ["laptop", "recovery key"])
    }

    @Test func aRemovedDeviceReadsNothingWrittenAfter() async throws {
        let server = try await TestSyncServer.start()
        defer { server.stop() }
        let laptop = try TestDevice()
        defer { laptop.removeFolder() }
        _ = try await laptop.sync.setUp(server: server.endpoint, password: server.account.password, deviceName: "laptop")
        let desktop = try TestDevice()
        defer { desktop.removeFolder() }
        try await pair(desktop, name: "desktop", approvedBy: laptop, server: server)
        try laptop.add(genp("before", "removal", ["sync": true, "v_Data": secret("old")]))
        _ = try await laptop.sync.syncNow()
        _ = try await desktop.sync.syncNow()
        #expect(desktop.data(genp("before", "removal", ["sync": true])) == .success(Data("old".utf8)))

        let removed = try await laptop.sync.removeDevice("desktop")
        #expect(removed.name == "desktop")
        #expect(try await laptop.sync.devices().map(\.name) == ["laptop", "recovery key"])
        try laptop.add(genp("after", "removal", ["sync": true, "v_Data": secret("new")]))
        _ = try await laptop.sync.syncNow()

        // The removed device is told so, and even with the server's rows it cannot open the new record.
        await #expect(throws: SyncError.self) { _ = try await desktop.sync.syncNow() }
        let desktopKeys = try LocalAccount.load(from: desktop.sync.engine).keys
        #expect(desktopKeys.current == 1)
        let newest = try await server.asOperator { connection in
            try await connection.connection.query(
                "SELECT zone, record, version, sealed FROM coffer_sync.records ORDER BY change DESC LIMIT 1", logger: connection.logger
            ).collect().first?.decode((UUID, UUID, Int64, Data).self)
        }
        let (zone, record, version, sealed) = try #require(newest)
        #expect(try RecordSeal.keyVersion(of: sealed) == 2)
        #expect(throws: SealedRecordError.unknownKeyVersion(2)) {
            _ = try RecordSeal.open(
                sealed, at: RecordPlace(zone: zone, record: record, version: version, deleted: false), zoneKeys: desktopKeys.zoneKeys(zone))
        }
        // The recovery key still joins: it was given the new key too.
        #expect(try await laptop.sync.devices().contains { $0.isRecoveryKey })
    }
}
