#if canImport(Glibc)
import Glibc
#endif

/// Looks groups up in the system's group database (NSS: `/etc/group` and whatever else is configured).
public enum GroupLookup {
    /// The trusted front end's group when `cofferd --trusted-group` is not given.
    public static let defaultTrustedFrontEndGroup = "coffer-cli"

    /// The gid of group `name`, or nil when there is none.
    public static func gid(named name: String) -> UInt32? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16 * 1024)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }
}
