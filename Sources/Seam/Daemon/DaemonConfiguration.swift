import ProgramIdentity
import Foundation
import TrustedPlatformModule
import DaemonClient
import KeychainModel
import Keystore

/// How `cofferd` runs.
public struct DaemonConfiguration: Sendable {
    /// Where keychains live.
    public enum Mode: Sendable, Equatable {
        /// The system service: one keychain per calling uid in `stateDirectory/UID/`; every user may connect.
        case system(stateDirectory: URL)
        /// Per-user mode: the user's own keychain folder; any other uid is refused. No isolation between
        /// the user's programs: they can read the files directly.
        case user(folder: KeychainFolder, uid: UInt32)
    }

    /// Where keychains live.
    public var mode: Mode
    /// The socket path.
    public var socketPath: String
    /// Lock a keychain after this long without a request; nil never.
    public var autoLockAfter: Duration?
    /// What one user may hold of the daemon at once (connections, bytes in flight, stored bytes) and the
    /// connection time-outs.
    public var limits: ResourceLimits
    /// The trusted front end's group (`cofferd --trusted-group`, by default `coffer-cli` when it exists):
    /// a caller running setgid to it from a root-owned file is ``PeerIdentity/isTrustedFrontEnd``.
    public var trustedFrontEndGroup: UInt32? = nil
    /// The TPM the keychains' device keys are sealed by: `COFFER_TPM`'s choice, or the kernel's `/dev/tpmrm0` when
    /// cofferd may open it (the system daemon, as root or in group `tss`).
    public var tpm: TPMSelection = .fromEnvironment()

    /// Creates a configuration.
    public init(mode: Mode, socketPath: String, autoLockAfter: Duration? = nil, limits: ResourceLimits = ResourceLimits()) {
        self.mode = mode
        self.socketPath = socketPath
        self.autoLockAfter = autoLockAfter
        self.limits = limits
    }

    /// The system service's socket.
    public static let systemSocketPath = "/run/coffer/socket"
    /// The system service's state folder.
    public static let systemStateDirectory = "/var/lib/coffer"

    /// The per-user daemon's socket for `folder`, where clients look for it (``PerUserDaemon``):
    /// `$XDG_RUNTIME_DIR/coffer/socket` for the default folder, `…/coffer/socket-HASH` for another.
    public static func userSocketPath(for folder: KeychainFolder, environment: [String: String], uid: UInt32) -> String {
        PerUserDaemon.socketPath(for: folder, environment: environment, uid: uid)
    }
}
