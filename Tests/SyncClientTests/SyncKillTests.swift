import Foundation
import PostgresFixture
import PostgresNIO
import Testing
import TestProcesses

@testable import SyncServer

/// `kill -9` of a device in the middle of sync, fifty times, while items keep being added: nothing acknowledged is
/// lost, nothing is sent twice, and both devices converge on the next run.
@Suite("Sync: kill -9 mid-sync", .timeLimit(.minutes(10)))
struct SyncKillTests {
    private var coffer: String { builtExecutable() }

    private func environment(_ home: String, password: String? = nil) -> [String: String] { cofferEnvironment(home: home, password: password) }

    @Test func killingADeviceMidSyncLosesNothing() async throws {
        let server = try await TestSyncServer.start()
        defer { server.stop() }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-kill-\(UUID().uuidString)").path
        let (laptop, desktop) = (root + "/laptop", root + "/desktop")
        let dsn = server.endpoint.dsn
        let setup = try ChildProcess.run(
            [coffer, "sync", "setup", dsn, "--name", "laptop"], environment: environment(laptop, password: server.account.password))
        #expect(setup.status == 0, "\(setup.errorText)")
        let recovery = try #require(setup.outputText.split(separator: "\n").last).trimmingCharacters(in: .whitespaces)
        let join = try ChildProcess.run(
            [coffer, "sync", "join", dsn, "--name", "desktop", "--recovery-key"], input: recovery + "\n",
            environment: environment(desktop, password: server.account.password))
        #expect(join.status == 0, "\(join.errorText)")

        var added = 0
        var killed = 0
        var generator = SystemRandomNumberGenerator()
        for round in 0..<50 {
            for _ in 0..<4 {
                let add = try ChildProcess.run(
                    [coffer, "add-generic-password", "-s", "kill", "-a", "item-\(added)", "--synchronizable", "yes", "-w", "value-\(added)"],
                    environment: environment(laptop))
                #expect(add.status == 0, "\(add.errorText)")
                added += 1
            }
            let device = round % 5 == 4 ? desktop : laptop
            let sync = try ChildProcess([coffer, "sync", "now"], environment: environment(device), output: .null, errors: .null)
            usleep(UInt32.random(in: 5_000...120_000, using: &generator))
            if sync.kill().signalled { killed += 1 }
        }
        #expect(killed > 10, "only \(killed) of 50 runs were killed before they ended")
        for device in [laptop, desktop, laptop, desktop] {
            let run = try ChildProcess.run([coffer, "sync", "now"], environment: environment(device))
            #expect(run.status == 0, "\(run.outputText) \(run.errorText)")
        }
        for index in 0..<added {
            let found = try ChildProcess.run(
                [coffer, "find-generic-password", "-s", "kill", "-a", "item-\(index)", "--synchronizable", "yes", "-w"], environment: environment(desktop))
            #expect(found.outputText == "value-\(index)\n", "item \(index): \(found.errorText)")
        }
        let (live, all) = try await server.asOperator { connection in
            try await connection.connection.query(
                "SELECT count(*) FILTER (WHERE NOT deleted), count(*) FROM coffer_sync.records", logger: connection.logger
            ).collect().first?.decode((Int, Int).self) ?? (-1, -1)
        }
        #expect(live == added, "the server holds \(live) live records for \(added) items")
        // Record ids are kept before sending: a run killed after the server stored a record sent it again as itself.
        #expect(all == added, "the server holds \(all) records in all for \(added) items")
    }
}
