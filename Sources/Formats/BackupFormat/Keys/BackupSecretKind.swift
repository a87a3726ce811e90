import KeychainModel

/// What protects a backup: a password the person chose, stretched by scrypt, a printed recovery key, or the key of the
/// keychain it was made for.
public enum BackupSecretKind: UInt8, Sendable, Equatable {
    /// A backup password (scrypt with the header's parameters).
    case password = 1
    /// A 256-bit recovery key, printed when the backup was made (no stretching needed).
    case recoveryKey = 2
    /// A secret encapsulated (X-Wing) to a recipient keychain's key (``BackupRecipient``).
    case recipient = 3
}

/// The secret that opens (or seals) a backup.
public enum BackupSecret: Sendable {
    /// A backup password, as UTF-8 bytes.
    case password(SecretBytes)
    /// A recovery key.
    case recoveryKey(RecoveryKey)
    /// Sealing for a recipient: the keychain the backup is made for, whose key a fresh secret is encapsulated to.
    case recipient(BackupRecipient)
    /// Opening a backup made for this keychain: the secret its recipient key decapsulated from the file's recipient
    /// block (``BackupHeader/recipientBlock``).
    case decapsulated(SecretBytes)

    /// Which kind it is.
    public var kind: BackupSecretKind {
        switch self {
        case .password: .password
        case .recoveryKey: .recoveryKey
        case .recipient, .decapsulated: .recipient
        }
    }
}
