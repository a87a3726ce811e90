import CofferRuntime
import Foundation
import KeychainClient
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A daemon's socket file appears only once the socket listens, so a client that sees the file never has
/// its connect refused (a start-up race that made clients report `errSecNotAvailable`).
@Suite("The daemon's socket is published listening", .timeLimit(.minutes(10)))
struct SocketPublicationTests {
    private static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-socket-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The socket is renamed into place: it accepts at once, has the asked mode, and no staging name is left.
    @Test func listenLeavesOnlyTheListeningSocket() throws {
        let directory = try Self.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("socket").path
        let listener = try UnixSocket.listen(at: path, mode: 0o600)
        let client = try UnixSocket.connect(to: path, timeout: .milliseconds(100))
        close(client)
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["socket"])
        // A socket something listens on is never taken over; once its listener is gone, the stale file is replaced.
        #expect(throws: UnixSocket.Failure("bind \(path): in use", EADDRINUSE)) { try UnixSocket.listen(at: path, mode: 0o600) }
        close(listener)
        close(try UnixSocket.listen(at: path, mode: 0o600))
        // A regular file is never replaced.
        let file = directory.appendingPathComponent("file").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: UnixSocket.Failure.self) { try UnixSocket.listen(at: file, mode: 0o600) }
    }

    /// Started twenty times, cofferd's socket accepts the first connect made the moment its file appears.
    @Test func aClientThatSeesTheSocketCanConnect() throws {
        let cofferd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cofferd")
        for _ in 0..<20 {
            let directory = try Self.folder()
            defer { try? FileManager.default.removeItem(at: directory) }
            let socket = directory.appendingPathComponent("socket").path
            let daemon = try ChildProcess(
                [cofferd.path, "--user", "--socket", socket],
                environment: ["COFFER_HOME": directory.appendingPathComponent("keychain").path, "PATH": "/usr/bin:/bin"],
                output: .null, errors: .null)
            defer { daemon.terminate() }
            var appeared = false
            for _ in 0..<100_000 where daemon.isRunning {
                if access(socket, F_OK) == 0 {
                    appeared = true
                    break
                }
                usleep(100)
            }
            #expect(appeared)
            guard appeared else { return }
            let connection = try UnixSocket.connect(to: socket)
            close(connection)
        }
    }
}
