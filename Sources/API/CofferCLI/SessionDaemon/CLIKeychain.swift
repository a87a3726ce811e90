import CCofferSystem
import KeychainSelection
import KeychainModel

/// The one keychain client of a `coffer` process, and the process hardening that depends on it.
///
/// `coffer` makes itself non-dumpable (`PR_SET_DUMPABLE` 0) so that other programs of the same user cannot
/// ptrace it or read its memory while it holds a passcode or a secret. A non-dumpable process's
/// `/proc/PID/exe` cannot be read by a process of the same uid without `CAP_SYS_PTRACE`, though, and the
/// per-user daemon (`cofferd --user`) is exactly such a process: it identifies each caller by reading that
/// link when the connection is made, and would refuse a non-dumpable `coffer`. (The system daemon runs
/// with `CAP_SYS_PTRACE` and is not affected.)
///
/// So, in daemon mode, `coffer` stays dumpable until the daemon has identified its connection: ``secure()``
/// opens the connection with a lock-status request (the daemon identifies a caller when it accepts the
/// connection, before it answers the first request), and only when that answer is in does the process
/// become non-dumpable, before any passcode or secret is read. Every later request uses that same,
/// already identified connection, because every command takes ``shared``. In embedded mode the process
/// becomes non-dumpable at once. Core files are disabled from the first instruction either way.
enum CLIKeychain {
    /// The keychain this process uses and its client, chosen once: the environment's choice, or a daemon
    /// started for the login session (``SessionDaemon``).
    private static let session = SessionDaemon.resolve()

    /// The keychain the environment selects, shared by every command of the process.
    static var shared: any KeychainClient { session.1 }

    /// Where ``shared`` is: embedded in a folder, or behind a daemon.
    static var choice: KeychainLocation.Choice { session.0 }

    /// Disables core files; called first thing in `main`.
    static func disableCoreFiles() {
        _ = coffer_disable_core_files()
    }

    /// Makes the process non-dumpable, after the daemon (if the keychain is behind one) has identified
    /// this process's connection. Called before any command that may read a passcode or a secret runs.
    ///
    /// Run as root through `sudo`, the command first does root's part and then becomes the invoking user
    /// (``InvokingUser``) before it talks to the daemon, so no connection is opened here: one opened as
    /// root would carry root's credentials, and the request would reach root's keychain.
    static func secure() {
        if shared is DaemonKeychain, InvokingUser.fromSudo() == nil {
            // The answer does not matter: a daemon that cannot be reached is reported by the command's own
            // request. Once any answer is in, the daemon has identified the connection.
            _ = shared.sendBlocking(.lockStatus)
        }
        _ = coffer_set_undumpable()
    }
}
