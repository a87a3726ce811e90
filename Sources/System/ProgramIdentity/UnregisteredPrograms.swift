import Foundation

/// Naming unregistered groups back: an unregistered group is a hash of a program's path, so the program is found by
/// hashing the paths it may have and comparing.
public enum UnregisteredPrograms {
    /// The paths a program of this user may run from: its running programs (`/proc/PID/exe`), then every file in the
    /// folders of `PATH` and in `/usr/libexec`, each also with its symbolic links resolved; without repeats.
    public static func candidatePaths(environment: [String: String]) -> [String] {
        var paths: [String] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int32(entry) != nil {
            if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(entry)/exe") {
                paths.append(path.hasSuffix(" (deleted)") ? String(path.dropLast(10)) : path)
            }
        }
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/libexec"]
        for folder in folders {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                let path = folder + "/" + name
                paths.append(path)
                paths.append(URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
            }
        }
        var seen = Set<String>()
        return paths.filter { seen.insert($0).inserted }
    }

    /// For each unregistered group among `groups`, the first of `paths` it is the group of.
    public static func paths(of groups: Set<String>, amongPaths paths: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for path in paths {
            let group = AppRegistry.unregisteredGroup(forPath: path)
            if groups.contains(group), found[group] == nil { found[group] = path }
        }
        return found
    }
}
