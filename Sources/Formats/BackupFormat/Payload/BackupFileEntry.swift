import KeychainModel

/// A protected file in a backup: the path it was backed up from, its protection class and the length of its
/// content (which the backup holds in the clear, inside its encryption).
public struct BackupFileEntry: Sendable, Equatable {
    /// The absolute path the file was backed up from.
    public var path: String
    /// The file's protection class, given again to the restored file.
    public var protection: FileProtectionClass
    /// The content's length in bytes.
    public var length: Int

    /// An entry.
    public init(path: String, protection: FileProtectionClass, length: Int) {
        self.path = path
        self.protection = protection
        self.length = length
    }

    /// Whether `path` can be kept in a backup and restored: absolute, at most 4,096 bytes of UTF-8, no NUL,
    /// and no `.` or `..` component (a restore never writes outside the path it names).
    public static func isAcceptable(path: String) -> Bool {
        let bytes = path.utf8
        guard bytes.first == UInt8(ascii: "/"), bytes.count <= 4096, !bytes.contains(0) else { return false }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        return !components.isEmpty && !components.contains { $0 == "." || $0 == ".." }
    }
}
