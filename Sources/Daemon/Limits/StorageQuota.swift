import Foundation
import KeychainOperations

#if canImport(Glibc)
import Glibc
#endif

/// Refuses requests that would grow a user's keychain beyond its quota, or fill the file system past
/// its reserve, before the engine runs them.
struct StorageQuota: Sendable {
    /// The most bytes one keychain folder may occupy.
    let perUser: Int
    /// The free space the file system keeps for every user's unlocks and deletes.
    let freeSpaceReserve: Int

    /// Whether `request` may make the keychain's files grow: item adds and updates, and registering a
    /// program. Deletes, unlocks, locks and passcode changes (which rewrite the keybag in place of the
    /// old one) are never refused, so a user at the quota can always make room and unlock.
    static func grows(_ request: Request) -> Bool {
        switch request {
        case .add, .update, .appsAdd: true
        case .copyMatching, .delete, .lockStatus, .unlock, .lock, .appsList, .appsRemove, .setPasscode,
             .changePasscode, .removePasscode, .setEraseAfterFailedAttempts, .unlockWithPrompt, .awaitPrompt,
             .answerPrompt: false
        }
    }

    /// Why a request of `incoming` bytes that grows the keychain in `folder` is refused, or nil.
    func refusal(folder: URL, incoming: Int) -> String? {
        if let free = Self.freeBytes(of: folder.path), free < Int64(freeSpaceReserve) + Int64(incoming) {
            return "the file system holding the keychains has \(free >> 20) MiB free, below the reserve of \(freeSpaceReserve >> 20) MiB the daemon keeps for unlocking and deleting"
        }
        let used = Self.occupiedBytes(of: folder.path)
        if used + Int64(incoming) > Int64(perUser) {
            return "this user's keychain occupies \(used >> 10) KiB of its \(perUser >> 10) KiB quota; delete items to make room"
        }
        return nil
    }

    /// The bytes the files directly inside `path` occupy on disk (allocated blocks, so a sparse file
    /// counts what it really takes, and never less than the apparent size of a dense one).
    static func occupiedBytes(of path: String) -> Int64 {
        guard let directory = opendir(path) else { return 0 }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var total: Int64 = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name == "." || name == ".." { continue }
            var status = stat()
            guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            total += Int64(status.st_blocks) * 512
        }
        return total
    }

    /// The bytes an unprivileged writer may still use on the file system holding `path`, or nil.
    static func freeBytes(of path: String) -> Int64? {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
