import Foundation
import KeychainModel
import PostgresNIO
import Testing

@testable import SyncClient
@testable import SyncServer

/// Two keychains in separate folders, one account on a real PostgreSQL: what one device writes, the other finds.
@Suite("Sync: two devices through one account", .timeLimit(.minutes(10)))
struct TwoDeviceSyncTests {
    @Test func addsUpdatesAndDeletesReachTheOtherDevice() async throws {
        try await withTwoDevices(prepare: { laptop in
            try laptop.add(genp("mail", "before-setup", ["sync": true, "v_Data": secret("early")]))
        }) { _, laptop, desktop in
            try laptop.add(genp("mail", "token", ["sync": true, "v_Data": secret("one")]))
            #expect(try await laptop.sync.syncNow().sent == 2)
            let pulled = try await desktop.sync.syncNow()
            #expect(pulled.applied == 2 && pulled.refused == 0)
            #expect(desktop.data(genp("mail", "token", ["sync": true])) == .success(Data("one".utf8)))
            #expect(desktop.data(genp("mail", "before-setup", ["sync": "syna"])) == .success(Data("early".utf8)))
            // Apple's rule: a query without kSecAttrSynchronizable finds local items only.
            #expect(desktop.data(genp("mail", "token")) == .failure(.itemNotFound))

            try laptop.update(genp("mail", "token", ["sync": true]), ["v_Data": secret("two")])
            _ = try await laptop.sync.syncNow()
            _ = try await desktop.sync.syncNow()
            #expect(desktop.data(genp("mail", "token", ["sync": true])) == .success(Data("two".utf8)))

            // And back: the desktop's change reaches the laptop.
            try desktop.update(genp("mail", "token", ["sync": true]), ["v_Data": secret("three")])
            _ = try await desktop.sync.syncNow()
            _ = try await laptop.sync.syncNow()
            #expect(laptop.data(genp("mail", "token", ["sync": true])) == .success(Data("three".utf8)))

            try laptop.delete(genp("mail", "token", ["sync": true]))
            _ = try await laptop.sync.syncNow()
            _ = try await desktop.sync.syncNow()
            #expect(desktop.data(genp("mail", "token", ["sync": true])) == .failure(.itemNotFound))
            #expect(desktop.data(genp("mail", "before-setup", ["sync": true])) == .success(Data("early".utf8)))
        }
    }

    @Test func itemsThatStayOnTheDeviceNeverReachTheServer() async throws {
        try await withTwoDevices { server, laptop, desktop in
            try laptop.add(genp("local", "plain", ["v_Data": secret("stays-1")]))
            try laptop.add(genp("local", "device-only", ["sync": true, "pdmn": "aku", "v_Data": secret("stays-2")]))
            try laptop.add(genp("synced", "yes", ["sync": true, "v_Data": secret("goes")]))
            #expect(try await laptop.sync.syncNow().sent == 1)
            _ = try await desktop.sync.syncNow()
            #expect(desktop.data(genp("local", "device-only", ["sync": "syna"])) == .failure(.itemNotFound))
            #expect(desktop.data(genp("local", "plain", ["sync": "syna"])) == .failure(.itemNotFound))
            #expect(desktop.data(genp("synced", "yes", ["sync": true])) == .success(Data("goes".utf8)))
            let count = try await server.asOperator { connection in
                try await connection.connection.query("SELECT count(*) FROM coffer_sync.records", logger: connection.logger).collect().first?.decode(Int.self)
            }
            #expect(count == 1)
        }
    }

    @Test func aDumpOfTheServerHoldsNoPlaintext() async throws {
        let plaintexts = ["s3cr3t-password-value", "secret-service-name", "secret-account-name", "Secret Label", "com.example.secret-group"]
        try await withTwoDevices { server, laptop, desktop in
            try laptop.add(
                genp(
                    plaintexts[1], plaintexts[2],
                    ["sync": true, "labl": .string(plaintexts[3]), "agrp": .string(plaintexts[4]), "v_Data": secret(plaintexts[0])]))
            _ = try await laptop.sync.syncNow()
            _ = try await desktop.sync.syncNow()
            #expect(desktop.data(genp(plaintexts[1], plaintexts[2], ["sync": true])) == .success(Data(plaintexts[0].utf8)))
            let dump = try await server.asOperator { connection in
                var bytes = Data()
                for table in ["accounts", "zones", "records", "key_shares", "device_log", "cursors"] {
                    let rows = try await connection.connection.query(
                        PostgresQuery(unsafeSQL: "SELECT row_to_json(t)::text FROM coffer_sync.\(table) t"), logger: connection.logger
                    ).collect()
                    for row in rows { bytes.append(Data(try row.decode(String.self).utf8)) }
                }
                return bytes
            }
            #expect(dump.count > 1_000)
            for plaintext in plaintexts {
                #expect(dump.range(of: Data(plaintext.utf8)) == nil, "the server holds \(plaintext)")
                // bytea is dumped as hex: search for the hex form too.
                let hex = plaintext.utf8.map { String(format: "%02x", $0) }.joined()
                #expect(dump.range(of: Data(hex.utf8)) == nil, "the server holds \(plaintext) in hex")
            }
        }
    }
}

/// A device that stays away while another makes a thousand changes catches up in one run.
@Suite("Sync: a device offline for a thousand changes", .timeLimit(.minutes(10)))
struct OfflineDeviceTests {
    @Test func aDeviceOfflineForAThousandChangesCatchesUp() async throws {
        try await withTwoDevices { _, laptop, desktop in
            _ = try await desktop.sync.syncNow()
            for index in 0..<200 { try laptop.add(genp("offline", "item-\(index)", ["sync": true, "v_Data": secret("0")])) }
            _ = try await laptop.sync.syncNow()
            for round in 1...4 {
                for index in 0..<200 { try laptop.update(genp("offline", "item-\(index)", ["sync": true]), ["v_Data": secret("\(round)")]) }
                _ = try await laptop.sync.syncNow()
            }
            for index in 150..<200 { try laptop.delete(genp("offline", "item-\(index)", ["sync": true])) }
            _ = try await laptop.sync.syncNow()
            // 1,050 changes later, the desktop comes back.
            let report = try await desktop.sync.syncNow()
            #expect(report.refused == 0 && report.conflicts == 0)
            for index in 0..<150 {
                #expect(desktop.data(genp("offline", "item-\(index)", ["sync": true])) == .success(Data("4".utf8)), "item \(index)")
            }
            for index in 150..<200 {
                #expect(desktop.data(genp("offline", "item-\(index)", ["sync": true])) == .failure(.itemNotFound), "item \(index)")
            }
        }
    }
}
