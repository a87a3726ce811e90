import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The path a protected file's header is bound to (``ProtectedFileFormat/ProtectedFileHeader``): absolute, its folder
/// with symbolic links resolved, then its own name. The same file reached through a link to its folder, or by a
/// relative path, is bound to the same path; a copy of it under another name or in another folder is not.
enum BoundPath {
    /// The bound path of the file at `path`; the path made absolute when its folder does not exist.
    static func of(_ path: String) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let name = url.lastPathComponent
        guard let resolved = realpath(url.deletingLastPathComponent().path, nil) else { return url.path }
        defer { free(resolved) }
        let folder = String(cString: resolved)
        return folder == "/" ? "/" + name : folder + "/" + name
    }
}
