import KeychainOperations

/// What ``Keychain/backup(to:protection:keychainPasscode:kdf:progress:)`` wrote.
public struct BackupSummary: Sendable, Equatable {
    /// Items in the backup.
    public let itemCount: Int
    /// Items that stayed on this device, by reason.
    public let leftBehind: BackupContents.LeftBehind
    /// The file's size in bytes.
    public let fileSize: Int
}
