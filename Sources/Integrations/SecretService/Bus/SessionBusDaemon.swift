import CSecretServiceBus
import CSystemdBus
import Foundation
import KeychainModel
import ProgramIdentity

#if canImport(Glibc)
import Glibc
#endif

/// The program at the other end of the provider's bus connection: the bus daemon, whose word on each client's
/// credentials (``BusCredentials``) decides which items the client sees.
///
/// Any program of the user can start a bus of its own and a provider on it. A bus it wrote itself would report
/// whatever credentials it likes, so the provider serves only a bus whose daemon runs from a root-owned program in
/// root-owned folders (dbus-daemon, dbus-broker as Debian installs them) as the provider's own user, which reports
/// what the kernel captured.
enum SessionBusDaemon {
    /// Why the daemon of `bus` may not be trusted, or nil when it may.
    static func problem(of bus: OpaquePointer) -> String? {
        let descriptor = coffer_sd_bus_get_fd(bus)
        guard descriptor >= 0 else { return "the bus connection has no socket to ask the kernel about" }
        let peer: PeerCredentials
        do {
            peer = try PeerCredentials.of(socket: descriptor)
        } catch {
            return "the kernel does not say who runs the bus (\(error))"
        }
        if peer.pidfd >= 0 { close(peer.pidfd) }
        guard peer.uid == getuid() || peer.uid == 0 else {
            return "the bus daemon (process \(peer.pid)) runs as uid \(peer.uid), neither this user nor root"
        }
        guard let executable = executable(of: peer.pid) else {
            return "the bus daemon's program (process \(peer.pid)) cannot be read"
        }
        if let problem = RootOwnedPath.problem(executable, kind: .executable) {
            return
                "the bus daemon must be a root-owned program in root-owned folders, as the system's dbus-daemon and dbus-broker are: \(ControlCharacterEscaping.escaped(problem))"
        }
        return nil
    }

    /// The running executable of `pid`, as `/proc/PID/exe` names it.
    private static func executable(of pid: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
