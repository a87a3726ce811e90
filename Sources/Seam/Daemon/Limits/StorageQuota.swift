import Foundation
import KeychainModel
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

    /// Whether `request` may make the keychain's files grow (``OperationTraits/growsStorage``).
    static func grows(_ request: Request) -> Bool { request.kind.traits.growsStorage }

    /// The bytes `request`, a frame of `length` bytes, brings to the keychain: a restore of staged parts brings
    /// what its connection staged (`staged`), read only for such a restore.
    static func incomingBytes(of request: Request, length: Int, staged: () -> Int) -> Int {
        guard case .restoreBackup(let restore) = request, restore.staging != nil else { return length }
        return length + staged()
    }

    /// Why a request of `incoming` bytes that grows `keychain` is refused, or nil.
    ///
    /// A keychain occupies the pages its item database uses (free pages left by deletes are not
    /// counted: later adds reuse them) and every other file of its folder (keybag, device key, registry).
    /// The write-ahead log and its index are not counted: SQLite empties the log into the database at
    /// each checkpoint (every 1 000 pages), so it holds at most about 4 MiB plus the largest request.
    func refusal(for keychain: UserKeychain, incoming: Int) -> String? {
        let folder = keychain.folder
        if let free = Self.freeBytes(of: folder.url.path), free < Int64(freeSpaceReserve) + Int64(incoming) {
            return
                "the file system holding the keychains has \(free >> 20) MiB free, below the reserve of \(freeSpaceReserve >> 20) MiB the daemon keeps for unlocking and deleting"
        }
        let database = folder.databaseURL.lastPathComponent
        let others = Self.occupiedBytes(of: folder.url.path, excluding: [database, database + "-wal", database + "-shm"])
        let items = (try? keychain.engine.databaseBytesInUse()) ?? Self.occupiedBytes(of: folder.url.path, only: database)
        let used = items + others
        if used + Int64(incoming) > Int64(perUser) {
            return
                "this user's keychain holds \(used >> 10) KiB of its \(perUser >> 10) KiB quota and the request brings \(incoming >> 10) KiB; delete items to make room"
        }
        return nil
    }

    /// The bytes the files directly inside `path` occupy on disk (allocated blocks, so a sparse file
    /// counts what it really takes), leaving out `excluded` names, or counting only `only`.
    static func occupiedBytes(of path: String, excluding excluded: Set<String> = [], only: String? = nil) -> Int64 {
        guard let directory = opendir(path) else { return 0 }
        defer { closedir(directory) }
        let descriptor = dirfd(directory)
        var total: Int64 = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name == "." || name == ".." || excluded.contains(name) { continue }
            if let only, name != only { continue }
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
