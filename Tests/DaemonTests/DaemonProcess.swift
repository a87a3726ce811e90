import CofferRuntime
import Foundation
import KeychainSelection
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// A `cofferd` started by a test, on a private state folder and socket, stopped at the end.
final class DaemonProcess {
    let directory: URL
    let socketPath: String
    let process: ChildProcess

    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cofferd")
    }

    /// Starts the daemon and waits until its socket answers.
    ///
    /// `prepareKeychain` runs first, with the folder of this user's keychain: a test that changes the
    /// keychain's files directly (a passcode) must do it before the daemon starts, since the daemon opens
    /// the keychain of a connecting user at once — even for the probe connection that waits for the socket.
    init(extraArguments: [String] = [], directory: URL? = nil, prepareKeychain: ((URL) throws -> Void)? = nil) throws {
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("cofferd-\(UUID().uuidString)")
        socketPath = self.directory.appendingPathComponent("run/socket").path
        try prepareKeychain?(self.directory.appendingPathComponent("state/\(getuid())"))
        process = try ChildProcess(
            [Self.executable.path, "--state-dir", self.directory.appendingPathComponent("state").path, "--socket", socketPath]
                + extraArguments,
            output: .null, errors: .null)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let descriptor = try? Self.connect(socketPath) {
                close(descriptor)
                return
            }
            usleep(20_000)
        }
        process.kill()
        throw CocoaError(.fileNoSuchFile)
    }

    /// A client of this daemon.
    func client() -> DaemonKeychain { DaemonKeychain(socketPath: socketPath) }

    /// The folder of `uid`'s keychain.
    func keychainFolder(uid: UInt32 = getuid()) -> URL { directory.appendingPathComponent("state/\(uid)") }

    /// Sends SIGTERM and waits (up to 30 s, then SIGKILL); returns the exit status.
    func terminate() -> Int32 {
        process.terminate(grace: .seconds(30)).status
    }

    /// Sends SIGKILL and waits.
    func kill9() {
        process.kill()
    }

    /// A raw connection to the socket.
    static func connect(_ path: String) throws -> Int32 { try UnixSocket.connect(to: path) }
}
