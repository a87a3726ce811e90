#if canImport(Glibc)
import Glibc
#endif

/// Whether only root could have put a file where it is: the file and every folder above it belong to root and no one
/// else may write them (a folder others may write only with its sticky bit, as `/tmp`, whose entries no other user
/// may replace), and none of them is a symbolic link. What a privileged or boundary-keeping program runs or reads as
/// its owner's word — a pinentry started by the trusted prompt agent, the Secret Service provider's settings — must
/// pass it; anything a program of the user could have written must not.
public enum RootOwnedPath {
    /// What a path should name.
    public enum Kind: Sendable {
        case file, executable, folder
    }

    /// Why `path` could have been written by someone other than root; nil when only root could have.
    public static func problem(_ path: String, kind: Kind) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is not an absolute path" }
        var status = stat()
        guard lstat(path, &status) == 0 else { return "\(path) cannot be examined (\(String(cString: strerror(errno))))" }
        if let problem = problem(with: status, at: path, kind: kind) { return problem }
        return problemAbove(path)
    }

    /// Why the file `descriptor` (opened from `path`) or a folder above it could have been written by someone other
    /// than root; nil when only root could have.
    public static func problem(descriptor: Int32, openedFrom path: String, kind: Kind) -> String? {
        guard path.hasPrefix("/") else { return "\(path) is not an absolute path" }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return "\(path) cannot be examined" }
        if let problem = problem(with: status, at: path, kind: kind) { return problem }
        return problemAbove(path)
    }

    private static func problemAbove(_ path: String) -> String? {
        var folder = path
        while let slash = folder.lastIndex(of: "/"), folder != "/" {
            folder = slash == folder.startIndex ? "/" : String(folder[..<slash])
            var status = stat()
            guard lstat(folder, &status) == 0 else { return "\(folder) cannot be examined" }
            if let problem = problem(with: status, at: folder, kind: .folder) { return problem }
        }
        return nil
    }

    private static func problem(with status: stat, at path: String, kind: Kind) -> String? {
        let type = status.st_mode & S_IFMT
        switch kind {
        case .folder: guard type == S_IFDIR else { return "\(path) is not a folder" }
        case .file, .executable: guard type == S_IFREG else { return "\(path) is not a regular file" }
        }
        guard status.st_uid == 0 else { return "\(path) belongs to uid \(status.st_uid), not root" }
        let writableByOthers = status.st_mode & (S_IWGRP | S_IWOTH) != 0
        if writableByOthers && !(kind == .folder && status.st_mode & S_ISVTX != 0) { return "\(path) is writable by others than root" }
        if kind == .executable, status.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH) == 0 { return "\(path) is not executable" }
        return nil
    }
}
