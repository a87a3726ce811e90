import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Who a caller is, as the kernel identified it: for the audit journal, never for a decision (the access groups
/// in ``CallerContext`` are what the keychain decides with).
public struct CallerIdentity: Sendable, Hashable {
    /// How the caller was identified.
    public enum Kind: Sendable, Hashable {
        /// The program that opened the keychain in its own process (the embedded keychain).
        case thisProcess
        /// A program registered by the group it runs with (`coffer apps register --group`).
        case identityGroup(gid: UInt32)
        /// A program registered by its path and content.
        case registeredPath
        /// A program the registry does not know, limited to the group it was given.
        case unregistered
        /// One of Coffer's own trusted front ends (`coffer`, `coffer-sync`), setgid to their group.
        case trustedFrontEnd
        /// The person answering a prompt through the keychain's own prompt agent.
        case person
        /// The keychain itself: sync bringing items from other devices, its own checks.
        case keychain
        /// A systemd unit reading a credential (`LoadCredential=`), named by systemd in the address it connected
        /// from; the identity's program is the unit's name.
        case systemdUnit
    }

    public var uid: UInt32
    /// The process (0 when not known).
    public var pid: Int32
    /// The program's path, as the kernel reported it (`/proc/PID/exe`), for people to read: the kind is what was
    /// checked.
    public var program: String?
    public var kind: Kind

    /// An identity.
    public init(uid: UInt32, pid: Int32 = 0, program: String? = nil, kind: Kind) {
        self.uid = uid
        self.pid = pid
        self.program = program
        self.kind = kind
    }

    /// This process: its user, its pid and its executable.
    public static let thisProcess: CallerIdentity = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, Int(PATH_MAX))
        let program = length > 0 ? String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        return CallerIdentity(uid: getuid(), pid: getpid(), program: program, kind: .thisProcess)
    }()
}
