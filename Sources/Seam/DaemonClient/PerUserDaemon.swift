import CofferRuntime
import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Where a per-user daemon (`cofferd --user`) listens, and whether one does.
///
/// A per-user daemon serves one keychain folder and listens in the user's runtime folder
/// (`$XDG_RUNTIME_DIR`, else `/run/user/UID`): at `coffer/socket` for the default folder, at
/// `coffer/socket-HASH` for any other (HASH: 16 hex digits of the FNV-1a hash of the folder's path), so
/// that a daemon for a `COFFER_HOME` of a test or a project never answers for the user's own keychain.
/// Clients find it there without `COFFER_SOCKET`, and every program of the user then shares its one
/// lock state.
public enum PerUserDaemon {
    /// The user's runtime folder: `$XDG_RUNTIME_DIR` when it is an absolute path, else `/run/user/UID`.
    public static func runtimeDirectory(environment: [String: String], uid: UInt32 = getuid()) -> String {
        environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/run/user/\(uid)"
    }

    /// Whether `environment` names a runtime folder of a login session: `XDG_RUNTIME_DIR` set to a folder
    /// this user owns, closed to everyone else (0700), as `pam_systemd` makes it. A daemon is started for
    /// the session only then: it lives until logout removes that folder.
    public static func hasSessionRuntimeDirectory(environment: [String: String], uid: UInt32 = getuid()) -> Bool {
        guard let path = environment["XDG_RUNTIME_DIR"], path.hasPrefix("/") else { return false }
        var status = stat()
        guard stat(path, &status) == 0 else { return false }
        return (status.st_mode & S_IFMT) == S_IFDIR && status.st_uid == uid && (status.st_mode & 0o077) == 0
    }

    /// The socket the per-user daemon of `folder` listens at.
    public static func socketPath(for folder: KeychainFolder, environment: [String: String], uid: UInt32 = getuid()) -> String {
        var defaults = environment
        defaults.removeValue(forKey: "COFFER_HOME")
        let name = folder == KeychainFolder.fromEnvironment(defaults) ? "socket" : "socket-" + fnv1a(folder.url.path)
        return runtimeDirectory(environment: environment, uid: uid) + "/coffer/" + name
    }

    /// The socket of a per-user daemon serving `folder` now, or nil when none answers there.
    ///
    /// The socket must be a socket of this user's; a file left by a daemon that was killed refuses the
    /// connection and counts as no daemon.
    public static func liveSocket(for folder: KeychainFolder, environment: [String: String], uid: UInt32 = getuid()) -> String? {
        let path = socketPath(for: folder, environment: environment, uid: uid)
        return answers(at: path, uid: uid) ? path : nil
    }

    /// Whether a daemon of `uid` accepts connections at `path`.
    public static func answers(at path: String, uid: UInt32 = getuid()) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFSOCK, status.st_uid == uid,
            let descriptor = try? UnixSocket.connect(to: path, timeout: .seconds(1))
        else { return false }
        close(descriptor)
        return true
    }

    /// 64-bit FNV-1a of `text`'s UTF-8 bytes, as 16 hex digits: a stable, short name, not a secret.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
