import KeychainModel

/// What a backup password must be: anyone with the file can guess it offline at scrypt's pace, so a short one is
/// refused unless the person says they know (`--allow-weak-passphrase`), and an empty one always.
enum BackupPassword {
    /// The shortest password accepted without `--allow-weak-passphrase`, in characters (Unicode scalars).
    static let minimumLength = 8

    /// Refuses `password` when it is empty, or shorter than ``minimumLength`` and `allowWeak` is false.
    static func check(_ password: SecretBytes, allowWeak: Bool) throws {
        let length = password.unicodeScalarCount
        guard length > 0 else { throw CLIFailure("backup: an empty backup password protects nothing; nothing was written") }
        guard allowWeak || length >= minimumLength else {
            throw CLIFailure(
                "backup: the backup password has \(length) characters; anyone with the file can guess a password shorter than \(minimumLength) characters offline. Choose a longer one, or pass --allow-weak-passphrase; nothing was written"
            )
        }
    }
}
