import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// TCP ports on 127.0.0.1 for the servers tests start (sshd, PostgreSQL).
public enum LoopbackPort {
    /// Why no port was found.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// A port nothing listens on now (the kernel's choice for a socket bound to port 0, closed again): another
    /// program may take it before the caller's server does, which the server's start then reports.
    public static func free() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Unavailable(description: "socket: errno \(errno)") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw Unavailable(description: "no free port on 127.0.0.1 (errno \(errno))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
