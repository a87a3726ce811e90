import Foundation
import PostgresFixture
import Testing
import TestProcesses

/// `coffer sync` as people run it, two keychains in separate processes: setup, join with the pairing code shown on one
/// machine and approved on the other, `--synchronizable` on the item commands, status, devices, and bad input.
@Suite("coffer sync: setup, join, approve, now, status", .timeLimit(.minutes(10)))
struct SyncCommandTests {
    private var coffer: String { builtExecutable() }

    private func environment(_ home: String, password: String? = nil) -> [String: String] { cofferEnvironment(home: home, password: password) }

    private func dsn(_ server: PostgresServer, as role: String) -> String { connectionURI(server, as: role) }

    private func run(_ arguments: [String], home: String, password: String? = nil, input: String = "") throws -> ChildProcess.Outcome {
        try ChildProcess.run([coffer] + arguments, input: input, environment: environment(home, password: password))
    }

    @Test func twoMachinesPairAndShareAnItem() throws {
        let server = try PostgresServer()
        defer { server.stop() }
        let admin = dsn(server, as: server.superuser)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-cli-\(UUID().uuidString)").path
        let (laptop, desktop) = (root + "/laptop", root + "/desktop")
        #expect(try run(["sync", "server", "init", admin, "--password-stdin"], home: laptop, input: server.superuserPassword).status == 0)
        let added = try run(["sync", "server", "add-account", admin, "--password-stdin"], home: laptop, input: server.superuserPassword)
        let lines = added.outputText.split(separator: "\n")
        let role = String(try #require(lines.first { $0.hasPrefix("role: ") }).dropFirst(6))
        let password = String(try #require(lines.first { $0.hasPrefix("password: ") }).dropFirst(10))
        let account = dsn(server, as: role)

        let add = try run(
            ["add-generic-password", "-s", "deploy", "-a", "ci", "--synchronizable", "yes", "-w", "hunter2-synced"], home: laptop)
        #expect(add.status == 0, "\(add.errorText)")
        #expect(try run(["add-generic-password", "-s", "deploy", "-a", "local", "-w", "stays-here"], home: laptop).status == 0)
        let setup = try run(["sync", "setup", account, "--name", "laptop"], home: laptop, password: password)
        #expect(setup.status == 0, "\(setup.errorText)")
        #expect(setup.outputText.contains("1 item(s) sent"), "\(setup.outputText)")
        let recovery = try #require(setup.outputText.split(separator: "\n").last).trimmingCharacters(in: .whitespaces)
        #expect(recovery.count == 69, "\(recovery)")
        #expect(!setup.outputText.contains(password) && !setup.errorText.contains(password))

        // The desktop asks to join and shows a code; the laptop approves it.
        let join = try ChildProcess(
            [coffer, "sync", "join", account, "--name", "desktop"], environment: environment(desktop, password: password), input: .null)
        let codeLine = try #require(join.nextOutputLine(timeout: .seconds(60)))
        let code = try #require(codeLine.split(separator: " ").last.map(String.init))
        #expect(codeLine.hasPrefix("Pairing code: ") && code.count == 11, "\(codeLine)")
        let approve = try run(["sync", "approve", code], home: laptop)
        #expect(approve.status == 0, "\(approve.errorText)")
        #expect(approve.outputText.hasPrefix("Approved desktop"))
        let joined = try join.finish(timeout: .seconds(60))
        #expect(joined.status == 0, "\(joined.errorText)")
        #expect(joined.outputText.contains("Joined as desktop; 1 item(s) received."), "\(joined.outputText)")

        let found = try run(["find-generic-password", "-s", "deploy", "-a", "ci", "--synchronizable", "yes", "-w"], home: desktop)
        #expect(found.outputText == "hunter2-synced\n", "\(found.errorText)")
        // Without the option, a find looks at local items only, as Apple's keychain does.
        #expect(try run(["find-generic-password", "-s", "deploy", "-a", "ci", "-w"], home: desktop).status != 0)
        #expect(try run(["find-generic-password", "-s", "deploy", "-a", "local", "--synchronizable", "any", "-w"], home: desktop).status != 0)

        // An embedded keychain syncs as its commands run: after a change, before a read; `coffer sync now` then has
        // nothing left to send.
        #expect(try run(["delete-generic-password", "-s", "deploy", "-a", "ci", "--synchronizable", "yes"], home: desktop).status == 0)
        let sent = try run(["sync", "now", "--json"], home: desktop)
        #expect(sent.status == 0 && sent.outputText.contains("\"sent\" : 0"), "\(sent.outputText) \(sent.errorText)")
        #expect(try run(["find-generic-password", "-s", "deploy", "-a", "ci", "--synchronizable", "any"], home: laptop).status != 0)
        let addedLater = try run(["add-generic-password", "-s", "deploy", "-a", "cd", "--synchronizable", "yes", "-w", "next"], home: laptop)
        #expect(addedLater.status == 0 && addedLater.errorText.isEmpty, "\(addedLater.errorText)")
        #expect(try run(["find-generic-password", "-s", "deploy", "-a", "cd", "--synchronizable", "yes", "-w"], home: desktop).outputText == "next\n")

        // With the server away, a change succeeds with a warning and is sent by a later command.
        try server.pause()
        let offline = try run(["add-generic-password", "-s", "deploy", "-a", "offline", "--synchronizable", "yes", "-w", "later"], home: laptop)
        #expect(offline.status == 0, "\(offline.errorText)")
        #expect(offline.errorText.hasPrefix("coffer: could not sync after the change:"), "\(offline.errorText)")
        #expect(!offline.errorText.contains("later"))
        try server.resume()
        #expect(try run(["find-generic-password", "-s", "deploy", "-a", "offline", "--synchronizable", "yes", "-w"], home: laptop).outputText == "later\n")
        #expect(try run(["find-generic-password", "-s", "deploy", "-a", "offline", "--synchronizable", "yes", "-w"], home: desktop).outputText == "later\n")

        let devices = try run(["sync", "devices"], home: laptop)
        #expect(devices.outputText.contains("laptop  (this device)") && devices.outputText.contains("desktop"), "\(devices.outputText)")

        // `coffer sync` opened these keychains itself, and recorded each change of their devices in their journals.
        for (home, expected) in [
            (laptop, ["set up an account with this device", "approved device desktop"]),
            (desktop, ["asked to join an account", "joined an account once approved"]),
        ] {
            let shown = try run(["audit", "show", "--json"], home: home)
            let changes = shown.outputText.split(separator: "\n").compactMap { line -> String? in
                guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    record["event"] as? String == "sync-device-changed", let detail = record["detail"] as? String
                else { return nil }
                return detail.replacingOccurrences(of: #" \(.*\)"#, with: "", options: .regularExpression)
            }
            #expect(changes == expected, "\(shown.outputText) \(shown.errorText)")
        }
        let status = try run(["sync", "status", "--json"], home: desktop)
        #expect(status.status == 0 && status.outputText.contains("\"device\" : \"desktop\""), "\(status.outputText)")
    }

    @Test func badInputGetsAClearErrorAndNothingChanges() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-cli-\(UUID().uuidString)").path
        let notSetUp = try run(["sync", "now"], home: root + "/k")
        #expect(notSetUp.status == 1 && notSetUp.errorText.contains("does not sync yet"), "\(notSetUp.errorText)")
        let badCode = try run(["sync", "approve", "NOT-A-CODE!"], home: root + "/k")
        #expect(badCode.status != 0 && badCode.errorText.contains("pairing code"), "\(badCode.errorText)")
        let unreachable = try run(["sync", "setup", "postgresql://nobody@%2Ftmp%2Fno-such-folder:5999/db"], home: root + "/k", password: "x")
        #expect(unreachable.status != 0 && unreachable.errorText.contains("cannot reach the sync server"), "\(unreachable.errorText)")
        #expect(try run(["sync", "status"], home: root + "/k").errorText.contains("does not sync"))
        let addAny = try run(["add-generic-password", "-s", "s", "-a", "a", "--synchronizable", "any", "-w", "x"], home: root + "/k")
        #expect(addAny.status != 0 && addAny.errorText.contains("--synchronizable any"), "\(addAny.errorText)")
    }
}
