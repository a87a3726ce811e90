import CSecretServiceBus

/// What the bus daemon says of a client's connection (`GetConnectionCredentials`): what the kernel reported
/// when the client connected, which nothing the client does afterwards changes.
struct BusCredentials: Sendable, Hashable {
    /// The client's user ID.
    var uid: UInt32
    /// The client's process ID at connect.
    var pid: Int32
    /// Its effective and supplementary groups at connect (the bus gives them in one list).
    var groups: [UInt32]
    /// Its LSM label (an AppArmor profile, an SELinux context), when the bus gives one: recorded, never relied on.
    var securityLabel: String?

    /// Asks `bus` for the credentials of the client `name`; nil when the bus gives no user or process ID (the
    /// client cannot be identified) or the client has left.
    static func of(client name: String, on bus: OpaquePointer) -> BusCredentials? {
        var raw = coffer_secret_credentials()
        guard coffer_secret_credentials_of(bus, name, &raw) >= 0 else { return nil }
        defer { coffer_secret_credentials_free(&raw) }
        guard raw.has_uid != 0, raw.has_pid != 0, raw.pid > 0, raw.pid <= UInt32(Int32.max) else { return nil }
        let groups = raw.groups.map { Array(UnsafeBufferPointer(start: $0, count: raw.group_count)) } ?? []
        return BusCredentials(
            uid: raw.uid, pid: Int32(raw.pid), groups: groups, securityLabel: raw.label.map { String(cString: $0) })
    }
}
