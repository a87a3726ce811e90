import ProgramIdentity

#if canImport(Glibc)
import Glibc
#endif

/// Why the daemon could not do something; messages carry no secrets.
public enum DaemonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed.
    case system(String, Int32)
    /// The peer's executable could not be identified (it exited, or its PID was reused).
    case unidentifiablePeer(String)
    /// A per-user daemon was called by another user.
    case foreignUser(UInt32)
    /// The user's keychain could not be opened (the reason names a status or a file, never a secret).
    case keychainUnavailable(String)
    /// The user's keychain does not open because its TPM no longer opens it (the reason says why): its recovery key
    /// does, through ``KeychainRecoveryDesk``.
    case keychainAwaitsRecovery(String)
    /// Another cofferd serves this socket; this one did not start.
    case socketInUse(String)

    public var description: String {
        switch self {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code)))"
        case .unidentifiablePeer(let reason): "cannot identify the calling program: \(reason)"
        case .foreignUser(let uid): "uid \(uid) may not use this per-user daemon"
        case .keychainUnavailable(let reason): "the keychain cannot be opened: \(reason)"
        case .keychainAwaitsRecovery(let reason): "the keychain awaits its recovery key: \(reason)"
        case .socketInUse(let path): "another cofferd is serving \(path); this one is not started"
        }
    }
}

extension DaemonError {
    /// The daemon's error for a caller that could not be identified.
    init(_ failure: IdentificationError) {
        switch failure {
        case .system(let call, let code): self = .system(call, code)
        case .unidentifiablePeer(let reason): self = .unidentifiablePeer(reason)
        }
    }
}
