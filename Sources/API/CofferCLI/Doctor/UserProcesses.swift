import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// This user's processes, by their command lines (`/proc/PID/cmdline`), for `coffer doctor`.
enum UserProcesses {
    /// The first process of this user whose arguments satisfy `matches`.
    static func first(where matches: ([String]) -> Bool) -> Int32? {
        let uid = getuid()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), pid != getpid() else { continue }
            var status = stat()
            guard stat("/proc/\(entry)", &status) == 0, status.st_uid == uid,
                let line = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !line.isEmpty
            else { continue }
            let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            if matches(arguments) { return pid }
        }
        return nil
    }
}
