import KeychainModel

/// What protects a backup: a password the person chose, stretched by scrypt, or a printed recovery key.
public enum BackupSecretKind: UInt8, Sendable, Equatable {
    /// A backup password (scrypt with the header's parameters).
    case password = 1
    /// A 256-bit recovery key, printed when the backup was made (no stretching needed).
    case recoveryKey = 2
}

/// The secret that opens (or seals) a backup.
public enum BackupSecret: Sendable {
    /// A backup password, as UTF-8 bytes.
    case password(SecretBytes)
    /// A recovery key.
    case recoveryKey(RecoveryKey)

    /// Which kind it is.
    public var kind: BackupSecretKind {
        switch self {
        case .password: .password
        case .recoveryKey: .recoveryKey
        }
    }
}
