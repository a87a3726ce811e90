import Foundation
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// `coffer sync …` runs `coffer-sync` in its place: with the same arguments, and never with the group an installed
/// `coffer` runs setgid to (the daemon's trusted front end).
@Suite("coffer sync: runs coffer-sync in its place", .timeLimit(.minutes(5)))
struct SyncDispatchTests {
    /// A copy of the built `coffer` in a new folder, beside a `coffer-sync` script that prints its arguments and ids.
    private func stagedCoffer() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-dispatch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.copyItem(at: SharedExecutables.buildFolder.appendingPathComponent("coffer"), to: folder.appendingPathComponent("coffer"))
        // `-p`: dash would otherwise set its effective group back to the real one itself, hiding what it was given.
        let script = "#!/bin/sh -p\necho \"$0|$*|$(id -g)|$(id -rg)\"\n"
        try Data(script.utf8).write(to: folder.appendingPathComponent("coffer-sync"))
        chmod(folder.appendingPathComponent("coffer-sync").path, 0o755)
        return folder
    }

    @Test func theArgumentsReachCofferSyncUnchanged() throws {
        let folder = try stagedCoffer()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try ChildProcess.run([folder.appendingPathComponent("coffer").path, "sync", "server", "init", "--password-stdin", "x y"])
        #expect(outcome.status == 0, "\(outcome.errorText)")
        let fields = outcome.outputText.trimmingCharacters(in: .newlines).split(separator: "|", omittingEmptySubsequences: false)
        #expect(fields.count == 4 && fields[1] == "server init --password-stdin x y", "\(outcome.outputText)")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to make a setgid copy"))
    func aSetgidCofferDoesNotPassItsGroupOn() throws {
        let folder = try stagedCoffer()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coffer = folder.appendingPathComponent("coffer").path
        // The `daemon` group (gid 1 on Debian) stands for coffer-cli.
        guard let group = getgrnam("daemon")?.pointee.gr_gid else { Issue.record("no daemon group"); return }
        #expect(chown(coffer, 0, group) == 0 && chmod(coffer, 0o2755) == 0)
        let outcome = try ChildProcess.run([coffer, "sync", "anything"])
        #expect(outcome.status == 0, "\(outcome.errorText)")
        let fields = outcome.outputText.trimmingCharacters(in: .newlines).split(separator: "|", omittingEmptySubsequences: false)
        #expect(fields.count == 4 && fields[2] == fields[3] && fields[2] == "\(getgid())", "effective and real group: \(outcome.outputText)")
    }
}
