import Foundation
import PostgresFixture
import PostgresNIO
import Query
import SyncClient
import Testing

@testable import SyncServer

/// The server killed with SIGKILL in the middle of the devices' transactions, six times: a run in flight fails (it
/// never hangs and never reports what the server did not commit), nothing acknowledged is lost, and once the server
/// has recovered every device converges, each item on the server once.
@Suite("Sync: the server killed mid-transaction", .timeLimit(.minutes(10)))
struct ServerCrashTests {
    @Test func crashingTheServerMidTransactionLosesNothing() async throws {
        try await withTwoDevices { server, laptop, desktop in
            var added = 0
            var interrupted = 0
            for round in 0..<6 {
                let batch = (added..<added + 150).map { genp("crash", "item-\($0)", ["sync": true, "v_Data": secret("value-\($0)")]) }
                #expect(try laptop.keychain.blocking.addEach(batch).allSatisfy(\.isSuccess))
                added += batch.count
                // The founding device pushes its batch while the other pulls what earlier rounds sent.
                let runs = [laptop, desktop].map { device in Task { try await device.sync.syncNow() } }
                try await Task.sleep(for: .milliseconds(Int.random(in: 10...250)))
                try server.cluster.crash()
                for run in runs {
                    switch try await Self.outcome(of: run, within: .seconds(60)) {
                    case .success(let report): #expect(report.refused == 0, "round \(round)")
                    case .failure: interrupted += 1
                    }
                }
                try server.cluster.resume()
            }
            #expect(interrupted > 0, "no run was in flight when the server died")
            for device in [laptop, desktop, laptop, desktop] {
                let report = try await device.sync.syncNow()
                #expect(report.refused == 0)
            }
            for index in 0..<added {
                #expect(try desktop.data(genp("crash", "item-\(index)", ["sync": true])).get() == Data("value-\(index)".utf8))
            }
            #expect(try laptop.sync.status().pending == 0)
            let (live, all) = try await server.asOperator { connection in
                try await connection.connection.query(
                    "SELECT count(*) FILTER (WHERE NOT deleted), count(*) FROM coffer_sync.records", logger: connection.logger
                ).collect().first?.decode((Int, Int).self) ?? (-1, -1)
            }
            #expect(live == added)
            #expect(all == added)
        }
    }

    /// The run's result, or a recorded issue when it has not ended within `limit` (a run that hangs on a dead server).
    private static func outcome(of run: Task<SyncReport, any Error>, within limit: Duration) async throws -> Result<SyncReport, any Error> {
        try await withThrowingTaskGroup(of: Result<SyncReport, any Error>?.self) { group in
            group.addTask { await run.result }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            guard let first else {
                run.cancel()
                Issue.record("a sync run did not end within \(limit) of the server's death")
                return .failure(CancellationError())
            }
            return first
        }
    }
}
