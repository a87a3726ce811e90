import Foundation
import Testing

/// `coffer audit require`: with the journal's folder full (a 16 KiB tmpfs filled up, mounted over it in a private
/// user and mount namespace), secret reads are refused with errSecIO when the setting is on and served when it is off;
/// writes go on, and no item is lost.
@Suite("coffer audit require with a full disk", .serialized, .timeLimit(.minutes(10)))
struct AuditFullDiskTests {
    /// Mounts a full tmpfs over the keychain's audit folder, starts cofferd there for the daemon transport, and runs
    /// a write, a secret read and an attributes read, each followed by its exit status.
    private static let script = """
        set -u
        umask 077
        mount -t tmpfs -o size=16k,mode=0700 coffer-full "$KEYCHAIN/audit" || exit 90
        dd if=/dev/zero of="$KEYCHAIN/audit/filler" bs=4096 count=64 2>/dev/null
        if [ "$TRANSPORT" = daemon ]; then
            "$COFFERD" --user --socket "$KEYCHAIN/../socket" 2>/dev/null &
            daemon=$!
            i=0; while [ ! -S "$KEYCHAIN/../socket" ] && [ $i -lt 1500 ]; do sleep 0.01; i=$((i+1)); done
            export COFFER_SOCKET="$KEYCHAIN/../socket"; unset COFFER_HOME
        fi
        printf 'ADDED-WHILE-FULL\\n' | "$COFFER" add-generic-password -s full.example -a bob -w; echo "add=$?"
        "$COFFER" find-generic-password -s full.example -a alice -w; echo "read=$?"
        "$COFFER" find-generic-password -s full.example -a alice >/dev/null; echo "attributes=$?"
        if [ "$TRANSPORT" = daemon ]; then kill $daemon; wait $daemon; fi
        """

    private func runWithFullJournal(_ cli: CLIRunner, _ transport: CLITransport) throws -> CLIRunner.Outcome {
        let cofferd = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("cofferd").path
        let quoted = Self.script.replacingOccurrences(of: "'", with: "'\\''")
        return try cli.runShell(
            "exec unshare --user --map-root-user --mount sh -c '\(quoted)'",
            environment: ["KEYCHAIN": cli.home.path, "COFFERD": cofferd, "TRANSPORT": transport.rawValue])
    }

    @Test(arguments: CLITransport.allCases) func secretReadsAreRefusedOnlyWhenSetAndNoItemIsLost(transport: CLITransport) throws {
        let cli = CLIRunner()
        defer { try? FileManager.default.removeItem(at: cli.home.deletingLastPathComponent()) }
        #expect(try cli.run(["add-generic-password", "-s", "full.example", "-a", "alice", "-w"], input: "FULL-DISK-SECRET\n").status == 0)
        #expect(try cli.run(["audit", "require"]).standardOutput.hasPrefix("off: "))

        // Off (the default): the read is served, and the record it could not write is lost.
        let served = try runWithFullJournal(cli, transport)
        #expect(served.standardOutput.contains("FULL-DISK-SECRET\nread=0\n"), "\(served.standardOutput) \(served.standardError)")
        #expect(served.standardOutput.contains("add=0\n") && served.standardOutput.contains("attributes=0\n"))
        #expect(try cli.run(["delete-generic-password", "-s", "full.example", "-a", "bob"]).status == 0)

        let on = try cli.run(["audit", "require", "on"])
        #expect(on.status == 0 && on.standardOutput.hasPrefix("on: "), "\(on.standardError)")
        let refused = try runWithFullJournal(cli, transport)
        #expect(refused.standardOutput.contains("add=0\n"), "\(refused.standardOutput) \(refused.standardError)")
        #expect(refused.standardOutput.contains("read=220\n") && !refused.standardOutput.contains("FULL-DISK-SECRET"))
        #expect(refused.standardError.contains("errSecIO (-36)") && refused.standardError.contains("coffer audit require off"))
        #expect(refused.standardOutput.contains("attributes=0\n"))

        // With the disk back, both items are there, and the journal verifies.
        let alice = try cli.run(["find-generic-password", "-s", "full.example", "-a", "alice", "-w"])
        #expect(alice.standardOutput == "FULL-DISK-SECRET\n")
        #expect(try cli.run(["find-generic-password", "-s", "full.example", "-a", "bob", "-w"]).standardOutput == "ADDED-WHILE-FULL\n")
        let verified = try cli.run(["audit", "verify"])
        #expect(verified.status == 0 && verified.standardOutput.hasPrefix("intact: "), "\(verified.standardOutput) \(verified.standardError)")
        let events = try cli.run(["audit", "show"]).standardOutput
        #expect(events.contains(" audit-setting-changed auditSetting "))
        #expect(try cli.run(["audit", "require", "off"]).standardOutput.hasPrefix("off: "))
    }
}
