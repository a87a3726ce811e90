/// What ``PeerIdentifier`` needs of a user's registry: the entries as they are now, and a way to record
/// that an identity-group program's file was replaced (a package upgrade). `ProgramRegistryFile` is the
/// daemon's; tests may give an in-memory one.
public protocol RegisteredPrograms: Sendable {
    /// The registry now.
    var snapshot: AppRegistry { get }
    /// Records the file now carrying identity group `gid`; a failure to store it is logged, not thrown
    /// (the caller is identified all the same, and the record is written at the next connection).
    func recordFile(ofGroup gid: UInt32, device: UInt64, inode: UInt64)
}
