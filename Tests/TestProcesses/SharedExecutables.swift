import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The built executables (`coffer`, `cofferd`, the helpers) at a path another user can run them from.
///
/// A test that runs a built program as another user (the daemon's service user, a second login) needs that user to
/// reach the file. When the build folder is in a place only its owner may enter (a clone under `/root`, mode 0700),
/// the program is copied once per test process to a folder every user may enter, and that copy is run.
public enum SharedExecutables {
    private static let copies = Mutex<[String: String]>([:])

    /// The folder the test bundle was built into.
    public static var buildFolder: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent() }

    /// A path to the built executable `name` that every user may run.
    public static func path(_ name: String) throws -> String {
        let built = buildFolder.appendingPathComponent(name).path
        if reachableByEveryone(built) { return built }
        return try copies.withLock { copies in
            if let copy = copies[name] { return copy }
            let folder = "/tmp/coffer-test-executables-\(getuid())-\(getpid())"
            if access(folder, F_OK) != 0 {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
            }
            _ = chmod(folder, 0o755)
            let copy = folder + "/" + name
            try? FileManager.default.removeItem(atPath: copy)
            try FileManager.default.copyItem(atPath: built, toPath: copy)
            _ = chmod(copy, 0o755)
            copies[name] = copy
            return copy
        }
    }

    /// Whether others may run `path`: every folder above it lets others enter, and the file lets others execute it.
    private static func reachableByEveryone(_ path: String) -> Bool {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IXOTH != 0 else { return false }
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            guard stat(folder, &status) == 0, status.st_mode & S_IXOTH != 0 else { return false }
            if folder == "/" { break }
            folder = (folder as NSString).deletingLastPathComponent
        }
        return true
    }
}
