import CofferTestSupport
import Foundation
import KeychainClient
import KeychainModel
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// One cofferd per socket: a second one started by the same user for the same socket (the same unit started twice,
/// or a program of the service user) refuses to start and leaves the first serving. It used to replace the live
/// socket with its own and remove it on exit, leaving every client without a daemon.
@Suite("A second cofferd for the same socket", .timeLimit(.minutes(10)))
struct SecondDaemonTests {
    @Test(.timeLimit(.minutes(1))) func aSecondDaemonRefusesToStartAndTheFirstGoesOnServing() throws {
        let daemon = try DaemonProcess()
        defer { _ = daemon.terminate() }
        let client = daemon.client()
        _ = try client.statusCalls.add(["class": "genp", "svce": "second-daemon", "acct": "first", "v_Data": .data(Data("kept".utf8))])
        var before = stat()
        #expect(lstat(daemon.socketPath, &before) == 0)

        let second = try ChildProcess.run(
            [
                DaemonProcess.executable.path, "--state-dir", daemon.directory.appendingPathComponent("state").path,
                "--socket", daemon.socketPath,
            ],
            timeout: .seconds(30))
        #expect(second.status != 0)
        #expect(second.errorText.contains("another cofferd is serving \(daemon.socketPath)"))

        // The first daemon's socket file is the same file, and it answers on a new connection.
        var after = stat()
        #expect(lstat(daemon.socketPath, &after) == 0)
        #expect(after.st_ino == before.st_ino)
        let fresh = daemon.client()
        let found = try fresh.statusCalls.copyMatching(["class": "genp", "svce": "second-daemon", "acct": "first", "r_Data": true])
        #expect(found == .data(Data("kept".utf8)))
        #expect(daemon.process.isRunning)
    }

    /// The lock goes with its holder, however it ends: after a SIGKILL a new daemon takes the socket over.
    @Test(.timeLimit(.minutes(1))) func aDaemonKilledLeavesNoLockBehind() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cofferd-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let killed = try DaemonProcess(directory: directory)
        killed.kill9()
        let next = try DaemonProcess(directory: directory)
        defer { _ = next.terminate() }
        #expect(next.process.isRunning)
        #expect(try next.client().statusCalls.lockStatus().lockState == .unlocked)
    }
}
