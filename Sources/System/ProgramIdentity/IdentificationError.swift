#if canImport(Glibc)
import Glibc
#endif

/// Why a calling program could not be identified at all; messages carry no secrets.
public enum IdentificationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed.
    case system(String, Int32)
    /// The caller's executable could not be identified (it exited, or its PID was reused).
    case unidentifiablePeer(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .unidentifiablePeer(let reason): "cannot identify the calling program: \(reason)"
        }
    }
}
