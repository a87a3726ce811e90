import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// What the daemon reads from one `stat`/`fstat` of an executable: which file it is, who owns it, and
/// whether it carries an identity group.
public struct FileIdentity: Sendable, Hashable {
    /// The device the file is on.
    public let device: UInt64
    /// The inode.
    public let inode: UInt64
    /// The owner.
    public let owner: UInt32
    /// The group.
    public let group: UInt32
    /// The mode bits, file type included.
    public let mode: UInt32
    /// The size in bytes.
    public let size: Int64
    /// The number of links; 0 once the file was deleted (a running program whose file was replaced).
    public let links: UInt64
    /// The modification time (seconds, nanoseconds): the user can set it back.
    public let modified: Timestamp
    /// The status-change time: the kernel sets it on every write or `utimensat`, and no one but root
    /// (through the clock) can set it back.
    public let changed: Timestamp

    /// A time as `stat` reports it.
    public struct Timestamp: Sendable, Hashable {
        /// Seconds since the epoch.
        public let seconds: Int64
        /// Nanoseconds.
        public let nanoseconds: Int64
    }

    /// The fields of `status`.
    public init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        owner = status.st_uid
        group = status.st_gid
        mode = status.st_mode
        size = Int64(status.st_size)
        links = UInt64(status.st_nlink)
        modified = Timestamp(seconds: Int64(status.st_mtim.tv_sec), nanoseconds: Int64(status.st_mtim.tv_nsec))
        changed = Timestamp(seconds: Int64(status.st_ctim.tv_sec), nanoseconds: Int64(status.st_ctim.tv_nsec))
    }

    /// The file open as `descriptor`.
    public static func of(descriptor: Int32) throws(IdentificationError) -> FileIdentity {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system("fstat", errno) }
        return FileIdentity(status)
    }

    /// The file at `path` as this process sees it (following symbolic links), or nil when there is none.
    public static func at(path: String) -> FileIdentity? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return FileIdentity(status)
    }

    /// Whether it is a regular file (`S_ISREG`): only those are hashed.
    public var isRegularFile: Bool { mode & 0o170000 == 0o100000 }

    /// Whether both name the same file: same device and inode.
    public func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }

    /// Whether the file gives whoever runs it the identity of group `gid` (``IdentityFileRule``: root-owned,
    /// setgid to `gid`, writable by neither group nor others). Group 0 is never an identity.
    public func carriesIdentity(ofGroup gid: UInt32) -> Bool {
        group == gid && IdentityFileRule.carriesIdentity(owner: owner, group: group, mode: mode)
    }

    /// Whether the file is a removed executable of group `gid` that root owns: what a program started from a
    /// file carrying that identity runs after an upgrade replaced the file. dpkg clears the setgid bit (mode
    /// 0600) of a file it replaces, so the running copy no longer shows it; the process got its group from
    /// it all the same (the caller checks that it got it through a setgid exec).
    public func isRemovedExecutable(ofGroup gid: UInt32) -> Bool {
        links == 0 && isRegularFile && owner == 0 && gid != 0 && group == gid
    }

    /// The identity group the file carries, if any (``carriesIdentity(ofGroup:)`` for its own group).
    public var identityGroup: UInt32? { carriesIdentity(ofGroup: group) ? group : nil }
}
