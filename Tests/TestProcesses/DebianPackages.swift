import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian packages a test fixture needs (a `dbus-daemon`, Python bindings): installed on first use
/// when missing, as `.ci/run` would, so that `swift test` on a fresh machine runs every test.
public enum DebianPackages {
    /// Why the packages could not be installed.
    public struct InstallFailure: Error, CustomStringConvertible {
        /// What went wrong, naming the packages.
        public let description: String
    }

    /// Installs those of `packages` that `dpkg -s` does not find (one `apt-get update`, one install),
    /// under a lock shared by the user's test processes: as root directly, otherwise through `sudo -n` (a user
    /// with sudo, as the README's first command installs the build's packages). Throws, naming them and the
    /// command that installs them, when they are missing and neither works.
    public static func ensureInstalled(_ packages: [String]) throws {
        let lock = open("/tmp/coffer-tests-apt-\(geteuid()).lock", O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0 else { throw InstallFailure(description: "cannot open the install lock (errno \(errno))") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 && errno == EINTR {}
        let missing = try packages.filter { try ChildProcess.run(["/usr/bin/dpkg", "-s", $0], errors: .null).status != 0 }
        guard !missing.isEmpty else { return }
        let names = missing.joined(separator: " ")
        let asRoot: [String]
        if geteuid() == 0 {
            asRoot = []
        } else if FileManager.default.isExecutableFile(atPath: "/usr/bin/sudo"),
            (try? ChildProcess.run(["/usr/bin/sudo", "-n", "/bin/true"], errors: .null, timeout: .seconds(30)))?.status == 0
        {
            asRoot = ["/usr/bin/sudo", "-n", "/usr/bin/env", "DEBIAN_FRONTEND=noninteractive"]
        } else {
            throw InstallFailure(description: "missing Debian packages: \(names) (install them first: sudo apt-get install \(names))")
        }
        let environment = ProcessInfo.processInfo.environment.merging(["DEBIAN_FRONTEND": "noninteractive"]) { $1 }
        for step in [["/usr/bin/apt-get", "update"], ["/usr/bin/apt-get", "install", "-y"] + missing] {
            let outcome = try ChildProcess.run(asRoot + step, environment: environment, timeout: .seconds(600))
            guard outcome.status == 0 else {
                throw InstallFailure(description: "\((asRoot + step).joined(separator: " ")) failed (\(outcome.status)): \(outcome.errorText.suffix(2_000))")
            }
        }
    }
}
