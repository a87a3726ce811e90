import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension KeychainFolder {
    /// Whether this process may create and replace files in the folder: `faccessat` with `AT_EACCESS`,
    /// so the effective user and groups decide (a setgid `coffer` is judged as it runs). False on a
    /// read-only file system (`EROFS`) and for a folder without write permission; true for a folder that
    /// does not exist yet (creating it is what decides).
    public var isWritable: Bool { Self.isWritable(url.path) }

    /// Whether this process may write `path` (a file or a folder), as ``isWritable`` decides; true when
    /// `path` does not exist.
    public static func isWritable(_ path: String) -> Bool {
        if faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 { return true }
        return errno == ENOENT
    }

    /// Whether `errno` after a failed create, open or rename means the folder or file is read-only for
    /// this process (`EACCES`, `EPERM`, `EROFS`) rather than some other failure.
    public static func isReadOnlyError(_ code: Int32) -> Bool {
        code == EACCES || code == EPERM || code == EROFS
    }

    /// The words for people when a change was refused because the keychain is read-only: names the folder.
    public var readOnlyReason: String {
        "the keychain folder \(url.path) is read-only for this process; the keychain can be read but not modified, and nothing was changed"
    }
}
