#if canImport(Glibc)
import Glibc
#endif

/// Why the daemon could not do something; messages carry no secrets.
public enum DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed.
    case system(String, Int32)
    /// The peer's executable could not be identified (it exited, or its PID was reused).
    case unidentifiablePeer(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .unidentifiablePeer(let reason): "cannot identify the calling program: \(reason)"
        }
    }
}
