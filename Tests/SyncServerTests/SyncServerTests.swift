import Foundation
import Logging
import PostgresFixture
import PostgresNIO
import Testing

@testable import SyncServer

/// The sync server's database on a real PostgreSQL cluster: preparing and migrating the schema, adding accounts, and
/// the boundary between accounts that row-level security keeps, tried as an account role would try to cross it.
@Suite("Sync server: schema, accounts and their boundary", .timeLimit(.minutes(10)))
struct SyncServerTests {
    private let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    /// Runs `body` with a new cluster and a connection as its superuser, then stops the cluster.
    private func withServer(_ body: (PostgresServer, SyncServerConnection) async throws -> Void) async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let admin = try await SyncServerConnection.connect(to: endpoint(server, as: server.superuser), password: server.superuserPassword)
        do {
            try await body(server, admin)
        } catch {
            await admin.close()
            throw error
        }
        await admin.close()
    }

    private func endpoint(_ server: PostgresServer, as role: String) -> ServerEndpoint {
        ServerEndpoint(address: .unixSocket(path: server.unixSocketPath), username: role, database: server.database)
    }

    /// Rows of `sql` (built from constants) as `connection`, each row's first column decoded as `T`.
    private func values<T: PostgresDecodable>(_ sql: String, _ type: T.Type, on connection: SyncServerConnection) async throws -> [T] {
        try await connection.connection.query(PostgresQuery(unsafeSQL: sql), logger: logger).collect().map { try $0.decode(T.self) }
    }

    @Test func prepareCreatesTheSchemaOnceAndAgainChangesNothing() async throws {
        try await withServer { _, admin in
            let administration = SyncServerAdministration(admin)
            #expect(try await administration.schemaVersion() == nil)
            #expect(try await administration.prepare() == 0)
            #expect(try await administration.schemaVersion() == ServerSchema.currentVersion)
            #expect(try await administration.prepare() == ServerSchema.currentVersion)
            let tables = try await values(
                "SELECT tablename::text FROM pg_tables WHERE schemaname = 'coffer_sync' ORDER BY 1", String.self, on: admin)
            #expect(tables == ["accounts", "cursors", "device_log", "key_shares", "pairings", "records", "schema_version", "zones"])
            let secured = try await values(
                "SELECT relname::text FROM pg_class WHERE relnamespace = 'coffer_sync'::regnamespace AND relrowsecurity ORDER BY 1",
                String.self, on: admin)
            #expect(secured == ServerSchema.accountTables.sorted())
        }
    }

    @Test func aSchemaNewerThanThisCofferIsRefused() async throws {
        try await withServer { _, admin in
            let administration = SyncServerAdministration(admin)
            try await administration.prepare()
            _ = try await values("UPDATE coffer_sync.schema_version SET version = 99 RETURNING version", Int.self, on: admin)
            await #expect(throws: SyncServerError.schemaTooNew(found: 99, known: ServerSchema.currentVersion)) {
                try await administration.prepare()
            }
            await #expect(throws: SyncServerError.notInitialized) { try await administration.addAccount() }
        }
    }

    @Test func anAccountIsARoleWhosePasswordTheServerNeverSees() async throws {
        try await withServer { server, admin in
            let administration = SyncServerAdministration(admin)
            try await administration.prepare()
            let account = try await administration.addAccount()
            #expect(account.role.hasPrefix("coffer_sync_") && account.role.count == 28)
            #expect(account.password.count == 43)
            #expect(!"\(account)".contains(account.password))
            let stored = try await values(
                "SELECT rolpassword FROM pg_authid WHERE rolname = '\(account.role)'", String.self, on: admin)
            #expect(stored.count == 1 && stored[0].hasPrefix("SCRAM-SHA-256$4096:") && !stored[0].contains(account.password))
            // The verifier computed here authenticates: the role logs in with the password, and not without it.
            let device = try await SyncServerConnection.connect(to: endpoint(server, as: account.role), password: account.password)
            #expect(try await values("SELECT current_user::text", String.self, on: device) == [account.role])
            await device.close()
            await #expect(throws: SyncServerError.self) {
                _ = try await SyncServerConnection.connect(to: endpoint(server, as: account.role), password: "wrong")
            }
        }
    }

    @Test func anAccountSeesAndChangesItsOwnRowsOnly() async throws {
        try await withServer { server, admin in
            let administration = SyncServerAdministration(admin)
            try await administration.prepare()
            let alice = try await administration.addAccount()
            let mallory = try await administration.addAccount()
            let aliceConnection = try await SyncServerConnection.connect(to: endpoint(server, as: alice.role), password: alice.password)
            let malloryConnection = try await SyncServerConnection.connect(to: endpoint(server, as: mallory.role), password: mallory.password)
            defer {
                Task {
                    await aliceConnection.close(); await malloryConnection.close()
                }
            }
            let zone = UUID()
            let record = UUID()
            try await aliceConnection.connection.query("INSERT INTO coffer_sync.zones (zone) VALUES (\(zone))", logger: logger)
            try await aliceConnection.connection.query(
                "INSERT INTO coffer_sync.records (zone, record, version, change, sealed) VALUES (\(zone), \(record), 1, 1, \(Data([1, 2, 3])))",
                logger: logger)
            #expect(try await values("SELECT count(*) FROM coffer_sync.records", Int.self, on: aliceConnection) == [1])

            // Mallory reads nothing of Alice's, cannot write into her account, and changes none of her rows.
            for table in ServerSchema.accountTables {
                let count = try await values("SELECT count(*) FROM coffer_sync.\(table) WHERE account <> current_user", Int.self, on: malloryConnection)
                #expect(count == [0], "\(table)")
            }
            do {
                try await malloryConnection.connection.query(
                    "INSERT INTO coffer_sync.records (account, zone, record, version, change, sealed) VALUES (\(alice.role), \(zone), \(UUID()), 1, 2, \(Data([9])))",
                    logger: logger)
                Issue.record("a row was written into another account")
            } catch {
                guard case .notPermitted = SyncServerConnection.failure(error) else {
                    Issue.record("expected a refusal (SQLSTATE 42501), got \(SyncServerConnection.failure(error))")
                    return
                }
            }
            let changed = try await values(
                "WITH changed AS (UPDATE coffer_sync.records SET sealed = '\\x00' RETURNING 1) SELECT count(*) FROM changed", Int.self,
                on: malloryConnection)
            #expect(changed == [0])
            let deleted = try await values(
                "WITH gone AS (DELETE FROM coffer_sync.records RETURNING 1) SELECT count(*) FROM gone", Int.self, on: malloryConnection)
            #expect(deleted == [0])
            #expect(try await values("SELECT sealed FROM coffer_sync.records", Data.self, on: aliceConnection) == [Data([1, 2, 3])])
        }
    }

    @Test func anAccountRoleCannotChangeTheSchemaOrItsOwnPowers() async throws {
        try await withServer { server, admin in
            let administration = SyncServerAdministration(admin)
            try await administration.prepare()
            let account = try await administration.addAccount()
            let device = try await SyncServerConnection.connect(to: endpoint(server, as: account.role), password: account.password)
            defer { Task { await device.close() } }
            for statement in [
                "CREATE ROLE intruder LOGIN", "DROP TABLE coffer_sync.records", "ALTER TABLE coffer_sync.records DISABLE ROW LEVEL SECURITY",
                "UPDATE coffer_sync.schema_version SET version = 0", "CREATE TABLE coffer_sync.extra (x int)",
                "DROP POLICY own_account ON coffer_sync.records", "GRANT coffer_sync_account TO coffer_admin", "ALTER ROLE CURRENT_USER CREATEROLE",
            ] {
                do {
                    try await device.connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    Issue.record("an account role ran \(statement)")
                } catch {
                    guard case .notPermitted = SyncServerConnection.failure(error) else {
                        Issue.record("\(statement): expected a refusal (SQLSTATE 42501), got \(SyncServerConnection.failure(error))")
                        continue
                    }
                }
            }
        }
    }
}
