import Foundation
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// gnome-keyring's Secret Service (`gnome-keyring-daemon --components=secrets`) on a session's private bus, in a
/// home of its own under the session's folder: `--unlock` creates its login keyring, unlocked, with the password
/// given on standard input, so it serves headless with no prompt. Stopped by ``stop()`` or when it goes away.
final class GnomeKeyring {
    /// The Debian packages it needs: gnome-keyring, and SecretStorage for the Python client the tests use with it.
    static let packages = ["gnome-keyring", "python3-secretstorage"]
    /// The daemon's executable, which the import names as its source.
    static let executable = "/usr/bin/gnome-keyring-daemon"

    private let process: ChildProcess
    private let session: SecretServiceSession

    /// Starts gnome-keyring on `session`'s bus and waits until it owns `org.freedesktop.secrets`.
    init(on session: SecretServiceSession) throws {
        try DebianPackages.ensureInstalled(Self.packages)
        self.session = session
        let home = session.path("gnome-keyring")
        let runtime = "\(home)/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        process = try session.start(
            [Self.executable, "--foreground", "--components=secrets", "--unlock"],
            settings: ["HOME": home, "XDG_DATA_HOME": "\(home)/data", "XDG_RUNTIME_DIR": runtime])
        _ = process.write(Data("keyring password".utf8))
        process.closeInput()
        for _ in 0..<600 {
            if try session.providerPID() == process.pid { return }
            usleep(50_000)
        }
        process.kill()
        throw SecretServiceSession.Failure(description: "gnome-keyring-daemon did not take org.freedesktop.secrets")
    }

    deinit {
        process.terminate()
    }

    /// Stops gnome-keyring and waits until the bus has released its name.
    func stop() throws {
        process.terminate()
        for _ in 0..<600 where try session.providerPID() != nil { usleep(50_000) }
    }
}
