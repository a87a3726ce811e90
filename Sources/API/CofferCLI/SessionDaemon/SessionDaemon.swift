import Foundation
import KeychainSelection
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// A per-user daemon started for the login session, as gpg starts gpg-agent.
///
/// The embedded keychain's lock state lives in each process, so with a passcode every `coffer` command
/// would start locked again. When the keychain the environment selects is embedded, has a passcode, and
/// the command runs in a login session (`XDG_RUNTIME_DIR` is the user's own 0700 folder), `coffer` starts
/// `cofferd --user --auto-lock 900` for that folder and talks to it: an unlock then lasts until `coffer
/// lock`, 15 minutes without a request, or logout (which removes the runtime folder, and the daemon stops
/// with its socket). Every program of the user finds that daemon too (``PerUserDaemon``).
///
/// Nothing is started outside a session (a container's root shell, cron, a test), under `sudo`, when
/// `COFFER_ACCESS_GROUPS` names groups (the daemon would not apply them), or when no `cofferd` is
/// installed beside `coffer` or on the `PATH`: the command then uses the embedded keychain as before.
enum SessionDaemon {
    /// How long to wait for a started daemon to answer.
    static let startTimeout = Duration.seconds(10)
    /// The auto-lock of a daemon started for the session, in seconds.
    static let autoLockSeconds = 900

    /// The keychain this command uses and its client: the environment's choice, or a daemon started for it.
    static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> (KeychainLocation.Choice, any KeychainClient) {
        let choice = KeychainLocation.choice(environment: environment)
        let client = KeychainLocation.client(for: choice, environment: environment)
        guard case .embedded(let folder) = choice, wantsDaemon(for: folder, environment: environment),
            (try? client.blocking.lockStatus().passcodeSet) == true
        else { return (choice, client) }
        do {
            let socket = try start(for: folder, environment: environment)
            return (.daemon(socketPath: socket), DaemonKeychain(socketPath: socket))
        } catch {
            let reason = (error as? CLIFailure)?.message ?? "\(error)"
            FileHandle.standardError.write(Data("coffer: \(reason); using the keychain directly (an unlock lasts for this command only)\n".utf8))
            return (choice, client)
        }
    }

    /// Whether a daemon may be started for `folder` in this environment (before asking the keychain whether it has a passcode).
    static func wantsDaemon(for folder: KeychainFolder, environment: [String: String]) -> Bool {
        (environment["COFFER_ACCESS_GROUPS"] ?? "").isEmpty && environment["SUDO_UID"] == nil
            && PerUserDaemon.hasSessionRuntimeDirectory(environment: environment)
            && FileManager.default.fileExists(atPath: folder.keybagURL.path)
    }

    /// Starts `cofferd --user` for `folder` and waits until it answers; returns its socket.
    static func start(for folder: KeychainFolder, environment: [String: String]) throws -> String {
        guard let daemon = cofferdExecutable(environment: environment) else {
            throw CLIFailure("no cofferd beside coffer or on the PATH to keep the keychain unlocked for the session")
        }
        let socket = PerUserDaemon.socketPath(for: folder, environment: environment)
        var daemonEnvironment = environment
        for name in ["COFFER_SOCKET", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES", "NOTIFY_SOCKET"] { daemonEnvironment.removeValue(forKey: name) }
        daemonEnvironment["COFFER_HOME"] = folder.url.path
        _ = try DetachedProcess.spawn(
            daemon, ["cofferd", "--user", "--auto-lock", String(autoLockSeconds)], environment: daemonEnvironment,
            what: "cannot start \(daemon)")
        let deadline = ContinuousClock.now + startTimeout
        while ContinuousClock.now < deadline {
            if PerUserDaemon.answers(at: socket) { return socket }
            usleep(10_000)
        }
        throw CLIFailure("\(daemon) did not answer at \(socket) within \(startTimeout)")
    }

    /// `cofferd` beside this executable (installed together, or the build folder), else the first on the `PATH`.
    static func cofferdExecutable(environment: [String: String]) -> String? {
        SpawnedExecutable.besideSelf("cofferd") ?? SpawnedExecutable.onPath("cofferd", environment: environment)
    }
}
