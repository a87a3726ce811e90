import Crypto
import Foundation
import PostgresNIO

/// What a sync server's administrator does, connected as a role that may create roles and own the schema (the
/// database's owner, or a superuser): prepare or migrate the database, and add accounts.
public struct SyncServerAdministration: Sendable {
    private let server: SyncServerConnection

    /// Administration over `server`.
    public init(_ server: SyncServerConnection) {
        self.server = server
    }

    /// Creates the sync schema, or migrates it to this Coffer's version; returns the version found (0 for none).
    /// Safe to run again and from several places at once (an advisory lock serialises them).
    @discardableResult
    public func prepare() async throws(SyncServerError) -> Int {
        try await server.transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(ServerSchema.migrationLock))", logger: server.logger)
            let found = try await Self.schemaVersion(on: connection, logger: server.logger) ?? 0
            guard found <= ServerSchema.currentVersion else {
                throw SyncServerError.schemaTooNew(found: found, known: ServerSchema.currentVersion)
            }
            for migration in ServerSchema.migrations.dropFirst(found) {
                for statement in migration { try await server.execute(statement, on: connection) }
            }
            try await connection.query("UPDATE coffer_sync.schema_version SET version = \(ServerSchema.currentVersion)", logger: server.logger)
            return found
        }
    }

    /// The sync schema's version, or nil when the database has none.
    public func schemaVersion() async throws(SyncServerError) -> Int? {
        try await server.transaction { connection in try await Self.schemaVersion(on: connection, logger: server.logger) }
    }

    /// Adds an account: a login role of its own in the group `coffer_sync_account`, with a random password that
    /// reaches the server only as its SCRAM verifier. The schema must be current.
    public func addAccount() async throws(SyncServerError) -> SyncAccount {
        let role = "coffer_sync_" + Self.randomBytes(8).map { String(format: "%02x", $0) }.joined()
        let password = Self.randomBytes(32).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let verifier: SCRAMVerifier
        do {
            verifier = try SCRAMVerifier(password: password)
        } catch {
            throw .connection("cannot derive the password's verifier")
        }
        try await server.transaction { connection in
            guard try await Self.schemaVersion(on: connection, logger: server.logger) == ServerSchema.currentVersion else {
                throw SyncServerError.notInitialized
            }
            // Role names and verifiers cannot be bound parameters; both are built here from hexadecimal and base64.
            try await server.execute(
                "CREATE ROLE \(role) LOGIN PASSWORD '\(verifier.text)' IN ROLE \(ServerSchema.accountGroup) CONNECTION LIMIT 64",
                on: connection)
            try await connection.query("INSERT INTO coffer_sync.accounts (account) VALUES (\(role))", logger: server.logger)
        }
        return SyncAccount(role: role, password: password)
    }

    private static func schemaVersion(on connection: PostgresConnection, logger: Logger) async throws -> Int? {
        let exists =
            try await connection.query("SELECT to_regclass('coffer_sync.schema_version') IS NOT NULL", logger: logger)
            .collect().first?.decode(Bool.self) ?? false
        guard exists else { return nil }
        return try await connection.query("SELECT version FROM coffer_sync.schema_version", logger: logger)
            .collect().first?.decode(Int.self)
    }

    private static func randomBytes(_ count: Int) -> Data {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Data($0) }
    }
}

/// How much room the server's records take.
public struct RecordStorage: Sendable {
    /// Bytes per record: the records table with its indexes and TOAST, over its records.
    public let perRecord: Int
    /// Bytes per record of the sealed bodies alone.
    public let sealedPerRecord: Int
}

extension SyncServerConnection {
    /// The records' storage, as the table's owner or an account sees it (an account sees its own rows' sizes only in the
    /// second figure; the first covers the whole table).
    public func storage() async throws(SyncServerError) -> RecordStorage {
        let logger = logger
        return try await transaction { connection in
            let row = try await connection.query(
                """
                SELECT pg_total_relation_size('coffer_sync.records')::bigint, count(*)::bigint, coalesce(sum(length(sealed)), 0)::bigint
                FROM coffer_sync.records
                """, logger: logger
            ).collect().first
            guard let row else { return RecordStorage(perRecord: 0, sealedPerRecord: 0) }
            let (total, count, sealed) = try row.decode((Int64, Int64, Int64).self)
            return RecordStorage(perRecord: Int(total / max(count, 1)), sealedPerRecord: Int(sealed / max(count, 1)))
        }
    }
}
