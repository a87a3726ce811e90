import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a connected Unix socket, as the kernel says (`SO_PEERCRED`), with a
/// pidfd (`SO_PEERPIDFD`) that pins the process so a reused PID cannot be mistaken for it.
public struct PeerCredentials: Sendable, Hashable {
    /// The peer's process ID at connect time.
    public let pid: Int32
    /// The peer's user ID.
    public let uid: UInt32
    /// The peer's effective group ID at connect: the identity group of a program registered by one.
    public let gid: UInt32
    /// A pidfd for the peer process, or -1 when the kernel does not offer one. Owned by the connection.
    public let pidfd: Int32
    /// The process's start time (field 22 of `/proc/PID/stat`) at connect, the fallback guard against PID reuse.
    public let startTime: UInt64?
    /// The peer's LSM label (`SO_PEERSEC`), when an LSM provides one: recorded and logged, never relied on.
    public let securityLabel: String?

    /// Layout-compatible with `struct ucred`, which Swift's Glibc module does not expose.
    private struct UCred {
        var pid: pid_t = 0
        var uid: uid_t = 0
        var gid: gid_t = 0
    }

    private static let peerCredentialsOption: Int32 = 17  // SO_PEERCRED
    private static let peerPidfdOption: Int32 = 77  // SO_PEERPIDFD (Linux 6.5+); not in glibc 2.36's headers
    private static let peerSecurityOption: Int32 = 31  // SO_PEERSEC

    /// Reads the peer's credentials from a connected socket.
    public static func of(socket descriptor: Int32) throws -> PeerCredentials {
        var credentials = UCred()
        var length = socklen_t(MemoryLayout<UCred>.size)
        guard getsockopt(descriptor, SOL_SOCKET, peerCredentialsOption, &credentials, &length) == 0 else {
            throw IdentificationError.system("SO_PEERCRED", errno)
        }
        var pidfd: Int32 = -1
        var pidfdLength = socklen_t(MemoryLayout<Int32>.size)
        if getsockopt(descriptor, SOL_SOCKET, peerPidfdOption, &pidfd, &pidfdLength) != 0 { pidfd = -1 }
        if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
        return PeerCredentials(
            pid: credentials.pid, uid: credentials.uid, gid: credentials.gid, pidfd: pidfd,
            startTime: processStartTime(credentials.pid), securityLabel: securityLabel(of: descriptor))
    }

    /// The peer's LSM label, or nil (no LSM offers one: `ENOPROTOOPT`).
    static func securityLabel(of descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(buffer.count)
        guard getsockopt(descriptor, SOL_SOCKET, peerSecurityOption, &buffer, &length) == 0, length > 0 else { return nil }
        let label = String(decoding: buffer[0..<Int(min(length, socklen_t(buffer.count)))].prefix { $0 != 0 }, as: UTF8.self)
        return label.isEmpty ? nil : label
    }

    /// Field 22 of `/proc/PID/stat` (start time in clock ticks since boot), or nil.
    static func processStartTime(_ pid: Int32) -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after the command name (which may contain spaces), starting with field 3.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }

    /// Whether the pinned process is still the one that connected: its pidfd still names `pid`
    /// (a process that exited shows `Pid: -1`), or, without a pidfd, `pid` still has the start time
    /// it had at connect.
    public var isStillTheConnectedProcess: Bool {
        guard pidfd >= 0 else {
            guard let startTime else { return false }
            return Self.processStartTime(pid) == startTime
        }
        guard let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(pidfd)", encoding: .utf8) else { return false }
        for line in info.split(separator: "\n") where line.hasPrefix("Pid:") {
            return Int32(line.dropFirst(4).trimmingCharacters(in: .whitespaces)) == pid
        }
        return false
    }

    /// Credentials read from a socket by its owner (the event-driven server reads `SO_PEERCRED` and
    /// `SO_PEERPIDFD` through SwiftNIO, which does not expose the descriptor); the start time is read here.
    /// The LSM label is passed when the server read one.
    public init(pid: Int32, uid: UInt32, gid: UInt32, pidfd: Int32, securityLabel: String? = nil) {
        self.init(pid: pid, uid: uid, gid: gid, pidfd: pidfd, startTime: Self.processStartTime(pid), securityLabel: securityLabel)
    }

    /// The same credentials for another PID, keeping the pidfd (for tests of the PID-reuse guard).
    package init(copying other: PeerCredentials, pid: Int32) {
        self.pid = pid
        uid = other.uid
        gid = other.gid
        pidfd = other.pidfd
        startTime = other.startTime
        securityLabel = other.securityLabel
    }

    private init(pid: Int32, uid: UInt32, gid: UInt32, pidfd: Int32, startTime: UInt64?, securityLabel: String?) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.pidfd = pidfd
        self.startTime = startTime
        self.securityLabel = securityLabel
    }

    /// Closes the pidfd.
    public func close() {
        if pidfd >= 0 { _ = Glibc.close(pidfd) }
    }
}
