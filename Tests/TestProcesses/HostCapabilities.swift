import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What this machine lets tests do, checked once: a test that needs what is missing is skipped with the reason
/// (`.enabled(if:_:)`), never failed or left hanging for it.
public enum HostCapabilities {
    /// Whether this process may hand `CAP_SYS_PTRACE` to a child (it is in the bounding set and this process is root),
    /// as the system daemon's unit grants it. Containers often drop it.
    public static let canGrantPtrace: Bool = {
        guard getuid() == 0, let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapBnd:") }),
            let mask = UInt64(line.dropFirst("CapBnd:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << 19) != 0  // CAP_SYS_PTRACE
    }()

    /// Whether an unprivileged user may make a user namespace (`unshare -Ur`); some kernels and containers forbid it.
    public static let unprivilegedUserNamespaces: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            let ran = try? ChildProcess.run(
                ["/usr/bin/setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "--", "/usr/bin/unshare", "-Urm", "/bin/true"],
                timeout: .seconds(10))
        else { return false }
        return ran.status == 0
    }()
}

extension HostCapabilities {
    /// Whether the Python Package Index answers (within ten seconds), where tests fetch the sources of the client
    /// libraries whose own test suites they run (Debian ships the libraries without their tests).
    public static let reachesPyPI: Bool = {
        guard
            let ran = try? ChildProcess.run(
                ["/usr/bin/python3", "-c", "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/', timeout=8)"],
                errors: .null, timeout: .seconds(10))
        else { return false }
        return ran.status == 0
    }()
}
