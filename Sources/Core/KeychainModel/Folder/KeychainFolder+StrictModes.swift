import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension KeychainFolder {
    /// The files of a keychain that hold keys or items, by name in the folder: the device key, the keybag
    /// and its lock file, the item database with its write-ahead log and shared-memory index.
    public static let protectedFileNames = ["device.key", "keybag", "keybag.lock", "items.sqlite", "items.sqlite-wal", "items.sqlite-shm"]

    /// Refuses a keychain whose folder or files another user could have written, as ssh's `StrictModes`
    /// does: the folder must be a directory owned by this user and not writable by group or others, and
    /// each existing file of ``protectedFileNames`` a regular file (never a symbolic link, which is not
    /// followed) owned by this user and not writable by group or others. A key file planted by another
    /// user in a folder that was world-writable, or a keybag replaced by a link, is therefore never used.
    ///
    /// Modes are changed only when they are wrong and safe to fix: a folder or file readable by group or
    /// others (but not writable by them) loses those bits; a failure to change them (a read-only file
    /// system) is ignored, since nothing was written by anyone else. Correct modes are left alone.
    ///
    /// Throws ``KeystoreError/unavailable(reason:)`` (`errSecNotAvailable`) naming the file and the problem.
    public func checkStrictModes() throws(KeystoreError) {
        let owner = geteuid()
        let folderPath = url.path
        var status = stat()
        guard stat(folderPath, &status) == 0 else {
            throw .io(reason: "cannot inspect the keychain folder \(folderPath): \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) == S_IFDIR else { throw .unavailable(reason: "\(folderPath) is not a folder") }
        try Self.check(folderPath, status, what: "the keychain folder", owner: owner)
        for name in Self.protectedFileNames {
            let path = url.appendingPathComponent(name).path
            guard lstat(path, &status) == 0 else {
                if errno == ENOENT { continue }
                throw .io(reason: "cannot inspect \(path): \(String(cString: strerror(errno)))")
            }
            switch status.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFLNK:
                throw .unavailable(reason: "\(path) is a symbolic link; keychain files are never followed through links")
            default:
                throw .unavailable(reason: "\(path) is not a regular file")
            }
            try Self.check(path, status, what: path, owner: owner)
        }
    }

    private static func check(_ path: String, _ status: stat, what: String, owner: uid_t) throws(KeystoreError) {
        guard status.st_uid == owner else {
            throw .unavailable(
                reason:
                    "\(what) \(what == path ? "" : "\(path) ")is owned by uid \(status.st_uid), not by this user (uid \(owner)); another user may have planted it"
            )
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o022 == 0 else {
            throw .unavailable(
                reason:
                    "\(what) \(what == path ? "" : "\(path) ")is writable by group or others (mode \(String(mode, radix: 8))); it may have been tampered with, so it is not used"
            )
        }
        if mode & 0o077 != 0 {
            _ = chmod(path, mode & ~0o077)
        }
    }
}
