import Foundation
import PostgresFixture
import Testing
import TestProcesses

@testable import SyncServer

/// `coffer sync server init` and `add-account` as an administrator runs them, against a real cluster: `coffer` runs
/// `coffer-sync` in its place; passwords come on standard input or in PGPASSWORD, never on the command line.
@Suite("coffer sync server: init and add-account", .timeLimit(.minutes(10)))
struct SyncServerCommandTests {
    private var coffer: String { SharedExecutables.buildFolder.appendingPathComponent("coffer").path }

    /// The cluster's connection URI for `role`: its socket folder as a percent-encoded host.
    private func dsn(_ server: PostgresServer, as role: String) -> String {
        let folder = server.socketFolder.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.")))!
        return "postgresql://\(role)@\(folder):\(server.port)/\(server.database)"
    }

    @Test func anAdministratorPreparesTheDatabaseAndAddsAnAccount() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let adminDSN = dsn(server, as: server.superuser)
        let prepared = try ChildProcess.run([coffer, "sync", "server", "init", adminDSN, "--password-stdin"], input: server.superuserPassword + "\n")
        #expect(prepared.status == 0, "\(prepared.errorText)")
        #expect(prepared.outputText == "prepared the sync schema in postgres\n")
        let again = try ChildProcess.run(
            [coffer, "sync", "server", "init", adminDSN],
            environment: ProcessInfo.processInfo.environment.merging(["PGPASSWORD": server.superuserPassword]) { $1 })
        #expect(again.outputText == "the sync schema in postgres is up to date (version \(ServerSchema.currentVersion) found)\n")

        let added = try ChildProcess.run([coffer, "sync", "server", "add-account", adminDSN, "--password-stdin"], input: server.superuserPassword)
        #expect(added.status == 0, "\(added.errorText)")
        let lines = added.outputText.split(separator: "\n")
        let role = try #require(lines.first { $0.hasPrefix("role: ") }).dropFirst(6)
        let password = try #require(lines.first { $0.hasPrefix("password: ") }).dropFirst(10)
        let device = try await SyncServerConnection.connect(
            to: ServerEndpoint(dsn: dsn(server, as: String(role)), defaultUser: "unused"), password: String(password))
        try await SyncServerSession(device).createZone(UUID())
        await device.close()
    }

    @Test func aWrongPasswordOrOneOnTheCommandLineIsRefusedWithoutEchoingIt() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let wrong = try ChildProcess.run([coffer, "sync", "server", "init", dsn(server, as: server.superuser), "--password-stdin"], input: "not-the-password")
        #expect(wrong.status != 0)
        #expect(wrong.errorText.contains("cannot reach the sync server") || wrong.errorText.contains("PostgreSQL error 28P01"), "\(wrong.errorText)")
        #expect(!wrong.errorText.contains("not-the-password"))
        let inline = dsn(server, as: server.superuser).replacingOccurrences(of: "coffer_admin@", with: "coffer_admin:\(server.superuserPassword)@")
        let refused = try ChildProcess.run([coffer, "sync", "server", "init", inline])
        #expect(refused.status != 0)
        #expect(refused.errorText.contains("holds a password"), "\(refused.errorText)")
        #expect(!refused.errorText.contains(server.superuserPassword) && !refused.outputText.contains(server.superuserPassword))
        let none = try ChildProcess.run(
            [coffer, "sync", "server", "init", dsn(server, as: server.superuser)],
            environment: ProcessInfo.processInfo.environment.filter { $0.key != "PGPASSWORD" })
        #expect(none.status != 0 && none.errorText.contains("no password"), "\(none.errorText)")
    }
}
