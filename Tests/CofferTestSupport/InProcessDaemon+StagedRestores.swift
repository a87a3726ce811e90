import Daemon

#if canImport(Glibc)
import Glibc
#endif

extension InProcessDaemon {
    /// The bytes of restores staged in this daemon for this test's user, every connection's.
    public var stagedRestoreBytes: Int {
        (try? server.keychains.keychain(for: getuid()).service.stagedRestoreBytes) ?? 0
    }
}
