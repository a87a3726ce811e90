import KeychainOperations

/// What ``Keychain/backup(to:protection:keychainPasscode:kdf:files:progress:)`` wrote.
public struct BackupSummary: Sendable, Equatable {
    /// Items in the backup.
    public let itemCount: Int
    /// Items that stayed on this device, by reason.
    public let leftBehind: BackupContents.LeftBehind
    /// The file's size in bytes.
    public let fileSize: Int
    /// The protected files in the backup, by absolute path (empty when none was asked for).
    public var files: [String] = []
    /// The protected files' content, in bytes.
    public var fileContentSize: Int = 0
}
