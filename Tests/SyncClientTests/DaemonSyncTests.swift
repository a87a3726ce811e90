import Coffer
import KeychainSelection
import Foundation
import PostgresFixture
import Testing
import TestProcesses

/// Two machines whose keychains are served by cofferd: the daemons sync in the background, so what a program adds
/// through one daemon is found through the other without anyone running `coffer sync now`.
@Suite("Sync: two cofferd daemons", .timeLimit(.minutes(10)))
struct DaemonSyncTests {
    private var coffer: String { builtExecutable() }
    private var cofferd: String { builtExecutable("cofferd") }

    private func dsn(_ server: PostgresServer, as role: String) -> String { connectionURI(server, as: role) }

    private func environment(home: String? = nil, socket: String? = nil, password: String? = nil) -> [String: String] {
        cofferEnvironment(home: home, socket: socket, password: password)
    }

    /// Prepares `server` with `coffer sync server init` and adds an account: its connection URI and password.
    private func makeAccount(on server: PostgresServer) throws -> (dsn: String, password: String) {
        let admin = dsn(server, as: server.superuser)
        _ = try ChildProcess.run([coffer, "sync", "server", "init", admin, "--password-stdin"], input: server.superuserPassword, environment: environment())
        let added = try ChildProcess.run(
            [coffer, "sync", "server", "add-account", admin, "--password-stdin"], input: server.superuserPassword, environment: environment())
        let lines = added.outputText.split(separator: "\n")
        let role = String(try #require(lines.first { $0.hasPrefix("role: ") }).dropFirst(6))
        let password = String(try #require(lines.first { $0.hasPrefix("password: ") }).dropFirst(10))
        return (dsn(server, as: role), password)
    }

    @Test func whatOneDaemonStoresTheOtherServes() async throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let (account, password) = try makeAccount(on: server)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-daemons-\(UUID().uuidString)").path
        let homes = [root + "/a/keychain", root + "/b/keychain"]
        let setup = try ChildProcess.run([coffer, "sync", "setup", account, "--name", "a"], environment: environment(home: homes[0], password: password))
        #expect(setup.status == 0, "\(setup.errorText)")
        let recovery = try #require(setup.outputText.split(separator: "\n").last).trimmingCharacters(in: .whitespaces)
        let join = try ChildProcess.run(
            [coffer, "sync", "join", account, "--name", "b", "--recovery-key"], input: recovery + "\n",
            environment: environment(home: homes[1], password: password))
        #expect(join.status == 0, "\(join.errorText)")

        let sockets = [root + "/a/socket", root + "/b/socket"]
        let daemons = try zip(homes, sockets).map { home, socket in
            try ChildProcess([cofferd, "--user", "--socket", socket], environment: environment(home: home), output: .null, errors: .null)
        }
        defer { daemons.forEach { _ = $0.terminate() } }
        for socket in sockets { for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) } }

        let add = try ChildProcess.run(
            [coffer, "add-generic-password", "-s", "daemon-sync", "-a", "bot", "--synchronizable", "yes", "-w", "through-daemons"],
            environment: environment(socket: sockets[0]))
        #expect(add.status == 0, "\(add.errorText)")
        var found = ""
        for _ in 0..<300 {
            let find = try ChildProcess.run(
                [coffer, "find-generic-password", "-s", "daemon-sync", "-a", "bot", "--synchronizable", "yes", "-w"],
                environment: environment(socket: sockets[1]))
            if find.status == 0 {
                found = find.outputText
                break
            }
            usleep(50_000)
        }
        #expect(found == "through-daemons\n")

        // Through the daemon, `coffer sync now` runs the daemon's sync and `status` reads its state.
        let now = try ChildProcess.run([coffer, "sync", "now", "--json"], environment: environment(socket: sockets[0]))
        #expect(now.status == 0, "\(now.errorText)")
        #expect(now.outputText.contains("\"sent\""))
        let status = try ChildProcess.run([coffer, "sync", "status", "--json"], environment: environment(socket: sockets[1]))
        #expect(status.status == 0, "\(status.errorText)")
        #expect(status.outputText.contains("\"lastRunAt\""))
        #expect(status.outputText.contains("\"pending\" : 0"))
        let setupThroughDaemon = try ChildProcess.run([coffer, "sync", "setup", account], environment: environment(socket: sockets[0], password: password))
        #expect(setupThroughDaemon.status != 0)
        #expect(setupThroughDaemon.errorText.contains("already syncs"), "\(setupThroughDaemon.errorText)")

        try await theSwiftAPIFollowsTheDaemonsSync(socket: sockets[0])
    }

    /// A keychain only cofferd can open (as the system daemon's are) joins and manages its account through the daemon:
    /// `coffer sync setup`, `join` with a pairing code, `approve`, `devices`, `remove-device` and `leave`, with only
    /// COFFER_SOCKET naming it.
    @Test func aDaemonsKeychainManagesItsAccountThroughTheDaemon() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let (account, password) = try makeAccount(on: server)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-daemon-account-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let sockets = [root + "/a/socket", root + "/b/socket"]
        let daemons = try ["a", "b"].enumerated().map { index, side in
            try ChildProcess(
                [cofferd, "--user", "--socket", sockets[index]], environment: environment(home: root + "/\(side)/keychain"), output: .null, errors: .null)
        }
        defer { daemons.forEach { _ = $0.terminate() } }
        for socket in sockets { for _ in 0..<1500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) } }

        let setup = try ChildProcess.run([coffer, "sync", "setup", account, "--name", "a"], environment: environment(socket: sockets[0], password: password))
        #expect(setup.status == 0, "\(setup.errorText)")
        let recovery = try #require(setup.outputText.split(separator: "\n").last).trimmingCharacters(in: .whitespaces)
        #expect(recovery.count == 69, "\(setup.outputText)")
        #expect(!setup.outputText.contains(password) && !setup.errorText.contains(password))
        let again = try ChildProcess.run([coffer, "sync", "setup", account, "--name", "a"], environment: environment(socket: sockets[0], password: password))
        #expect(again.status != 0 && again.errorText.contains("already syncs"), "\(again.errorText)")

        // b asks to join through its daemon; a approves through its own.
        let join = try ChildProcess(
            [coffer, "sync", "join", account, "--name", "b"], environment: environment(socket: sockets[1], password: password), input: .null)
        let codeLine = try #require(join.nextOutputLine(timeout: .seconds(60)))
        let code = try #require(codeLine.split(separator: " ").last.map(String.init))
        #expect(codeLine.hasPrefix("Pairing code: "), "\(codeLine)")
        let approve = try ChildProcess.run([coffer, "sync", "approve", code], environment: environment(socket: sockets[0]))
        #expect(approve.status == 0 && approve.outputText.hasPrefix("Approved b"), "\(approve.outputText) \(approve.errorText)")
        let joined = try join.finish(timeout: .seconds(60))
        #expect(joined.status == 0 && joined.outputText.contains("Joined as b"), "\(joined.outputText) \(joined.errorText)")

        let devices = try ChildProcess.run([coffer, "sync", "devices", "--json"], environment: environment(socket: sockets[0]))
        #expect(devices.status == 0, "\(devices.errorText)")
        for name in ["\"a\"", "\"b\"", "\"recovery key\""] { #expect(devices.outputText.contains(name), "\(devices.outputText)") }
        let removed = try ChildProcess.run([coffer, "sync", "remove-device", "b"], environment: environment(socket: sockets[0]))
        #expect(removed.status == 0 && removed.outputText.hasPrefix("Removed b"), "\(removed.outputText) \(removed.errorText)")
        let left = try ChildProcess.run([coffer, "sync", "leave"], environment: environment(socket: sockets[0]))
        #expect(left.status == 0, "\(left.errorText)")
        let status = try ChildProcess.run([coffer, "sync", "status"], environment: environment(socket: sockets[0]))
        #expect(status.status != 0 && status.errorText.contains("does not sync"), "\(status.errorText)")

        // Each change to the account's devices is in the journal of the keychain that made it, with its outcome.
        let changes = try sockets.map { socket in
            let shown = try ChildProcess.run([coffer, "audit", "show", "--json"], environment: environment(socket: socket))
            #expect(shown.status == 0, "\(shown.errorText)")
            return shown.outputText.split(separator: "\n").compactMap { line -> (String, Int)? in
                guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    record["event"] as? String == "sync-device-changed", let detail = record["detail"] as? String,
                    let status = record["status"] as? Int
                else { return nil }
                return (detail.replacingOccurrences(of: #" \(.*\)"#, with: "", options: .regularExpression), status)
            }
        }
        #expect(
            changes[0].map(\.0) == [
                "set up an account with this device", "set up an account with this device", "approved device b", "removed device b", "left the account",
            ])
        #expect(changes[0].map { $0.1 == 0 } == [true, false, true, true, true])
        #expect(changes[1].map(\.0) == ["asked to join an account", "joined an account once approved"])
    }

    /// Coffer's sync calls through a daemon that syncs: the state, a run on request, and the updates a change brings.
    private func theSwiftAPIFollowsTheDaemonsSync(socket: String) async throws {
        let keychain = Keychain(client: DaemonKeychain(socketPath: socket))
        let before = try await keychain.syncState()
        #expect(before.isSyncing)
        guard case .synced? = before.lastRun else {
            Issue.record("the daemon has run sync: \(String(describing: before.lastRun))")
            return
        }
        let report = try await keychain.syncNow()
        #expect(report.refused == 0)

        var updates = keychain.syncStateUpdates().makeAsyncIterator()
        let first = try #require(try await updates.next())
        #expect(first.isSyncing)
        try await keychain.add(GenericPassword(service: "api-sync", account: "bot", value: Data("v".utf8), synchronizable: true))
        // The add is recorded as pending, then the background run it wakes sends it: a later state shows a run
        // newer than the first and nothing pending.
        var sent = false
        for _ in 0..<10 {
            guard let state = try await updates.next() else { break }
            if state.pending == 0, let run = state.lastRun, let firstRun = first.lastRun, run.date > firstRun.date {
                sent = true
                break
            }
        }
        #expect(sent)

        // An embedded keychain answers the state but does not run sync itself.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-embedded-sync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let embedded = Keychain(folder: folder)
        #expect(try await embedded.syncState() == SyncState(isSyncing: false))
        await #expect(throws: KeychainError.self) { try await embedded.syncNow() }
        do {
            try await embedded.syncNow()
        } catch {
            #expect(error.status == .unimplemented)
        }
    }
}
