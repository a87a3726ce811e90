/// Where a backup or a restore is, for a progress display.
public enum BackupStage: Sendable, Equatable {
    /// The keychain is reading the items (export) or writing them in one transaction (restore).
    case keychain
    /// Deriving the key from the password (scrypt).
    case derivingKey
    /// Encrypting (backup) or decrypting and checking (restore): bytes done of the total.
    case cipher(done: Int, total: Int)
    /// Reading or writing the file.
    case file
}
