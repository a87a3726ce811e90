import Foundation
import PostgresNIO

/// What a device does on the server, connected as its account's role: zones, records written by compare-and-swap on
/// their version, the changes since a cursor, cursors, the device log and the zone keys' shares. Row-level security
/// confines every statement to the account's own rows.
public struct SyncServerSession: Sendable {
    private let server: SyncServerConnection

    /// A session over `server`, connected as an account role.
    public init(_ server: SyncServerConnection) {
        self.server = server
    }

    /// Creates `zone` in the account unless it exists.
    public func createZone(_ zone: UUID) async throws(SyncServerError) {
        try await server.transaction { connection in
            try await connection.query(
                "INSERT INTO coffer_sync.zones (zone) VALUES (\(zone)) ON CONFLICT DO NOTHING", logger: server.logger)
        }
    }

    /// The account's zones.
    public func zones() async throws(SyncServerError) -> [UUID] {
        try await server.transaction { connection in
            try await connection.query("SELECT zone FROM coffer_sync.zones ORDER BY zone", logger: server.logger).collect().map {
                try $0.decode(UUID.self)
            }
        }
    }

    /// Writes `record` of `zone` if the server has it at `expectedVersion` (nil: only if it does not exist yet), as
    /// version `expectedVersion + 1` (or 1) with the zone's next change number; otherwise changes nothing and returns
    /// the record as the server has it.
    ///
    /// The change number is the zone's counter, incremented in the same transaction: the zone's row stays locked
    /// until the commit, so writes to a zone commit in the order of their change numbers and a reader that has seen
    /// change N has seen every change before it. A write that conflicts is rolled back and consumes no number.
    public func write(
        zone: UUID, record: UUID, expectedVersion: Int64?, sealed: Data, deleted: Bool = false
    ) async throws(SyncServerError) -> RecordWrite {
        let answers = try await write(zone: zone, [RecordWriteRequest(record: record, expectedVersion: expectedVersion, sealed: sealed, deleted: deleted)])
        guard let answer = answers.first else { throw .connection("the server answered no write") }
        return answer
    }

    /// Writes several records of `zone` in one transaction, each as ``write(zone:record:expectedVersion:sealed:deleted:)``
    /// writes one (compare-and-swap on its version, the zone's next change number), answering each in order. A write
    /// that conflicts is undone to its savepoint, consuming no change number, and answered with the server's record;
    /// the others commit together.
    public func write(zone: UUID, _ writes: [RecordWriteRequest]) async throws(SyncServerError) -> [RecordWrite] {
        let outcomes: [RecordWrite?] = try await server.transaction { connection in
            var outcomes: [RecordWrite?] = []
            for write in writes {
                try await connection.query("SAVEPOINT coffer_write", logger: server.logger)
                let counted = try await connection.query(
                    """
                    UPDATE coffer_sync.zones SET change_counter = change_counter + 1
                    WHERE account = current_user AND zone = \(zone) RETURNING change_counter
                    """, logger: server.logger
                ).collect()
                guard let change = try counted.first?.decode(Int64.self) else { throw SyncServerError.unknownZone(zone) }
                let rows: [PostgresRow]
                if let expected = write.expectedVersion {
                    rows = try await connection.query(
                        """
                        UPDATE coffer_sync.records SET version = version + 1, change = \(change), sealed = \(write.sealed), deleted = \(write.deleted)
                        WHERE account = current_user AND zone = \(zone) AND record = \(write.record) AND version = \(expected)
                        RETURNING version
                        """, logger: server.logger
                    ).collect()
                } else {
                    rows = try await connection.query(
                        """
                        INSERT INTO coffer_sync.records (zone, record, version, change, sealed, deleted)
                        VALUES (\(zone), \(write.record), 1, \(change), \(write.sealed), \(write.deleted)) ON CONFLICT DO NOTHING RETURNING version
                        """, logger: server.logger
                    ).collect()
                }
                if let version = try rows.first?.decode(Int64.self) {
                    try await connection.query("RELEASE SAVEPOINT coffer_write", logger: server.logger)
                    outcomes.append(.written(version: version, change: change))
                } else {
                    try await connection.query("ROLLBACK TO SAVEPOINT coffer_write", logger: server.logger)
                    outcomes.append(nil)
                }
            }
            if outcomes.contains(where: { $0 != nil }) { try await connection.query("SELECT pg_notify(current_user, '')", logger: server.logger) }
            return outcomes
        }
        var answers: [RecordWrite] = []
        for (write, outcome) in zip(writes, outcomes) {
            if let outcome {
                answers.append(outcome)
            } else {
                answers.append(.conflict(current: try await record(zone: zone, record: write.record)))
            }
        }
        return answers
    }

    /// The record `record` of `zone`, or nil.
    public func record(zone: UUID, record: UUID) async throws(SyncServerError) -> SyncedRecord? {
        try await records(
            "SELECT zone, record, version, change, sealed, deleted FROM coffer_sync.records WHERE zone = \(zone) AND record = \(record)"
        ).first
    }

    /// The records of `zone` written after change `after`, in change order, at most `limit`.
    public func changes(zone: UUID, after: Int64, limit: Int = 1_000) async throws(SyncServerError) -> [SyncedRecord] {
        try await records(
            """
            SELECT zone, record, version, change, sealed, deleted FROM coffer_sync.records
            WHERE zone = \(zone) AND change > \(after) ORDER BY change LIMIT \(limit)
            """)
    }

    /// Records that `device` has seen `zone` up to change `change` (a cursor only moves forward).
    public func setCursor(device: UUID, zone: UUID, change: Int64) async throws(SyncServerError) {
        try await server.transaction { connection in
            try await connection.query(
                """
                INSERT INTO coffer_sync.cursors (device, zone, change) VALUES (\(device), \(zone), \(change))
                ON CONFLICT (account, device, zone) DO UPDATE SET change = greatest(coffer_sync.cursors.change, excluded.change)
                """, logger: server.logger)
        }
    }

    /// Forgets `device`'s cursors (a removed device no longer holds tombstones back).
    public func removeCursors(device: UUID) async throws(SyncServerError) {
        try await server.transaction { connection in
            try await connection.query("DELETE FROM coffer_sync.cursors WHERE device = \(device)", logger: server.logger)
        }
    }

    /// Deletes the tombstones of `zone` that every device with a cursor has seen; returns how many.
    @discardableResult
    public func collectTombstones(zone: UUID) async throws(SyncServerError) -> Int {
        try await server.transaction { connection in
            try await connection.query(
                """
                WITH seen AS (SELECT min(change) AS change FROM coffer_sync.cursors WHERE zone = \(zone)),
                gone AS (
                    DELETE FROM coffer_sync.records WHERE zone = \(zone) AND deleted AND change <= (SELECT change FROM seen)
                    RETURNING 1
                )
                SELECT count(*) FROM gone
                """, logger: server.logger
            ).collect().first?.decode(Int.self) ?? 0
        }
    }

    /// Appends `entry` to the account's device log at `position` (1 for the first) if that place is free; returns
    /// whether it was (another device may have taken it first).
    public func appendDeviceLog(position: Int64, entry: Data) async throws(SyncServerError) -> Bool {
        try await server.transaction { connection in
            let rows = try await connection.query(
                """
                INSERT INTO coffer_sync.device_log (position, entry) VALUES (\(position), \(entry))
                ON CONFLICT DO NOTHING RETURNING position
                """, logger: server.logger
            ).collect()
            if !rows.isEmpty { try await connection.query("SELECT pg_notify(current_user, '')", logger: server.logger) }
            return !rows.isEmpty
        }
    }

    /// The device log's entries after `position`, in order.
    public func deviceLog(after position: Int64 = 0) async throws(SyncServerError) -> [(position: Int64, entry: Data)] {
        try await server.transaction { connection in
            try await connection.query(
                "SELECT position, entry FROM coffer_sync.device_log WHERE position > \(position) ORDER BY position", logger: server.logger
            ).collect().map { row in
                let (position, entry) = try row.decode((Int64, Data).self)
                return (position, entry)
            }
        }
    }

    /// Stores `device`'s share of `zone`'s key at `keyVersion` (replacing one at the same place).
    public func putKeyShare(zone: UUID, keyVersion: Int64, device: UUID, share: Data) async throws(SyncServerError) {
        try await server.transaction { connection in
            try await connection.query(
                """
                INSERT INTO coffer_sync.key_shares (zone, key_version, device, share) VALUES (\(zone), \(keyVersion), \(device), \(share))
                ON CONFLICT (account, zone, key_version, device) DO UPDATE SET share = excluded.share
                """, logger: server.logger)
        }
    }

    /// `device`'s shares of `zone`'s keys, by key version.
    public func keyShares(zone: UUID, device: UUID) async throws(SyncServerError) -> [(keyVersion: Int64, share: Data)] {
        try await server.transaction { connection in
            try await connection.query(
                """
                SELECT key_version, share FROM coffer_sync.key_shares WHERE zone = \(zone) AND device = \(device) ORDER BY key_version
                """, logger: server.logger
            ).collect().map { row in
                let (version, share) = try row.decode((Int64, Data).self)
                return (version, share)
            }
        }
    }

    /// Leaves a joining device's pairing request under `pairing` (replacing an unanswered one there).
    public func putPairingRequest(_ pairing: UUID, request: Data) async throws(SyncServerError) {
        try await server.transaction { connection in
            try await connection.query(
                """
                INSERT INTO coffer_sync.pairings (pairing, request) VALUES (\(pairing), \(request))
                ON CONFLICT (account, pairing) DO UPDATE SET request = excluded.request, response = NULL, created = now()
                """, logger: server.logger)
        }
    }

    /// The pairing `pairing`: its request, its response if answered, and its age in seconds; nil when there is none.
    public func pairing(_ pairing: UUID) async throws(SyncServerError) -> (request: Data, response: Data?, age: Double)? {
        try await server.transaction { connection in
            try await connection.query(
                """
                SELECT request, response, extract(epoch FROM now() - created)::float8 FROM coffer_sync.pairings WHERE pairing = \(pairing)
                """, logger: server.logger
            ).collect().first.map { row in
                let (request, response, age) = try row.decode((Data, Data?, Double).self)
                return (request, response, age)
            }
        }
    }

    /// Answers the pairing `pairing` unless it was answered already; returns whether this answer was stored.
    public func answerPairing(_ pairing: UUID, response: Data) async throws(SyncServerError) -> Bool {
        try await server.transaction { connection in
            !(try await connection.query(
                """
                UPDATE coffer_sync.pairings SET response = \(response) WHERE pairing = \(pairing) AND response IS NULL RETURNING 1
                """, logger: server.logger
            ).collect().isEmpty)
        }
    }

    /// Removes the pairing `pairing`.
    public func removePairing(_ pairing: UUID) async throws(SyncServerError) {
        try await server.transaction { connection in
            try await connection.query("DELETE FROM coffer_sync.pairings WHERE pairing = \(pairing)", logger: server.logger)
        }
    }

    private func records(_ query: PostgresQuery) async throws(SyncServerError) -> [SyncedRecord] {
        try await server.transaction { connection in
            try await connection.query(query, logger: server.logger).collect().map { row in
                let (zone, record, version, change, sealed, deleted) = try row.decode((UUID, UUID, Int64, Int64, Data, Bool).self)
                return SyncedRecord(zone: zone, record: record, version: version, change: change, sealed: sealed, deleted: deleted)
            }
        }
    }
}

extension SyncServerSession {
    /// Runs `body` while listening for the account's wake-ups: the sequence `body` gets yields one element each time a
    /// device of the account writes (a record, the device log), and ends when `body` returns. A wake-up is a hint,
    /// never the truth: what changed is read from the cursor on (a server without `LISTEN` is polled instead).
    /// Another account's writes wake nobody here: each account's wake-ups go to a channel named after its role.
    public func listeningForWrites<Value: Sendable>(
        _ body: (WriteWakeUps) async throws -> Value
    ) async throws(SyncServerError) -> Value {
        try server.checkOpen()
        do {
            let role = try await server.connection.query("SELECT current_user::text", logger: server.logger).collect().first?.decode(String.self)
            guard let role else { throw SyncServerError.connection("the server did not say which role this is") }
            return try await server.connection.listen(on: role) { notifications in try await body(WriteWakeUps(notifications: notifications)) }
        } catch {
            throw SyncServerConnection.failure(error)
        }
    }
}

/// The account's wake-ups while ``SyncServerSession/listeningForWrites(_:)`` listens: one element per write by a
/// device of the account.
public struct WriteWakeUps: AsyncSequence, Sendable {
    public typealias Element = Void
    let notifications: PostgresNotificationSequence

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: PostgresNotificationSequence.AsyncIterator
        public mutating func next() async throws -> Void? {
            try await base.next() == nil ? nil : ()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: notifications.makeAsyncIterator()) }
}
