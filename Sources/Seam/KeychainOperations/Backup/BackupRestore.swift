import KeychainModel

/// What ``Request/restoreBackup(_:)`` writes: a backup's record stream, opened and checked by the front end,
/// and what to do when an item of the backup has the same primary key (reference §1.4) as one already here.
///
/// A restore too large for one request (the daemon accepts at most 17 MiB) is staged first: its parts go to the
/// keychain with ``Request/stageRestore(_:)`` under a ``RestoreStagingID``, and the restore names that identifier.
/// The staged parts are written first, then ``records`` when it is not empty, all in one transaction.
public struct BackupRestore: Sendable, Equatable {
    /// The record stream; empty when every record was staged.
    public var records: SecretBytes
    /// The staged parts to write, or nil when ``records`` holds the whole backup.
    public var staging: RestoreStagingID?
    /// The conflict policy.
    public var policy: RestorePolicy

    /// A restore request of one record stream.
    public init(records: SecretBytes, policy: RestorePolicy) {
        self.records = records
        staging = nil
        self.policy = policy
    }

    /// A restore request of the parts staged under `staging`.
    public init(staging: RestoreStagingID, policy: RestorePolicy) {
        records = SecretBytes(copying: [])
        self.staging = staging
        self.policy = policy
    }
}

/// What a restore does with an item whose primary key is already taken by a different item.
public enum RestorePolicy: String, Sendable, Equatable, CaseIterable {
    /// The item already in the keychain wins; the backup's is not restored.
    case keep
    /// The backup's item replaces the one in the keychain.
    case replace
    /// Both are kept where uniqueness allows: a password from the backup is restored with ` (restored)` after its
    /// account (a number after that when taken). A certificate or a key is identified by what it is (issuer and
    /// serial number, the public key's hash), so both cannot be kept: the existing one stays, and the report says so.
    case both
}
