#if canImport(Glibc)
import Glibc
#endif

/// Whether the peer of a connected socket has closed it, without reading from it: the cancellation test
/// a thread-per-connection server passes to ``PeerIdentifier/identify(peer:registry:isAbandoned:)``.
public enum SocketHangup {
    /// True once `socket`'s peer has shut down or closed the connection (`POLLHUP`, `POLLRDHUP`, `POLLERR`).
    public static func hasHungUp(_ socket: Int32) -> Bool {
        var entry = pollfd(fd: socket, events: Self.readHangup, revents: 0)
        guard poll(&entry, 1, 0) > 0 else { return false }
        return entry.revents & (Int16(POLLHUP | POLLERR | POLLNVAL) | Self.readHangup) != 0
    }

    /// `POLLRDHUP` (Linux), which Glibc's Swift module does not export.
    static let readHangup: Int16 = 0x2000
}
