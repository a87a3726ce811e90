import ProgramIdentity
import Foundation
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

    /// The per-user socket: `$XDG_RUNTIME_DIR/coffer/socket`, else `/run/user/UID/coffer/socket`.
    public static func userSocketPath(environment: [String: String], uid: UInt32) -> String {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(uid)"
        return runtime + "/coffer/socket"
    }
}
