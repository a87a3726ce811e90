import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where `coffer` finds the programs it starts: installed beside it, else on the `PATH`.
enum SpawnedExecutable {
    /// The executable `name` in the folder of this process's own executable, when there is one.
    static func besideSelf(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let own = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let candidate = URL(fileURLWithPath: own).deletingLastPathComponent().appendingPathComponent(name).path
        return access(candidate, X_OK) == 0 ? candidate : nil
    }

    /// The first executable file `name` in the folders of `environment`'s `PATH` (`/usr/local/bin:/usr/bin:/bin` when unset).
    static func onPath(_ name: String, environment: [String: String]) -> String? {
        (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map { "\($0)/\(name)" }
            .first { access($0, X_OK) == 0 }
    }
}
