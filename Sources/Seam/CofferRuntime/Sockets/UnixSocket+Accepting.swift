#if canImport(Glibc)
import Glibc
#endif

extension UnixSocket {
    /// Accepts connections on `listener` one at a time, each made close-on-exec and handed to `connection`, until
    /// `stopped` says so (then nil) or `accept` fails for good (then its error number). An interrupted or aborted
    /// accept is tried again; running out of descriptors or memory waits 100 ms and tries again.
    public static func acceptConnections(on listener: Int32, stopped: () -> Bool, _ connection: (Int32) -> Void) -> Int32? {
        while !stopped() {
            let accepted = accept(listener, nil, nil)
            guard accepted >= 0 else {
                if stopped() { return nil }
                if errno == EINTR || errno == ECONNABORTED { continue }
                if errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM {
                    usleep(100_000)
                    continue
                }
                return errno
            }
            _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
            connection(accepted)
        }
        return nil
    }
}
