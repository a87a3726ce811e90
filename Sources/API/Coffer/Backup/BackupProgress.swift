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
    /// Sending a restore's items to the keychain in parts of a few MiB, before it writes them in one transaction:
    /// parts sent of the total.
    case staging(sent: Int, total: Int)
    /// Reading a protected file into the backup, or writing it back on restore: content bytes done of the total.
    case protectedFile(path: String, done: Int, total: Int)
}
