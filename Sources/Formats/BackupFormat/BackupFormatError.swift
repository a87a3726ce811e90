/// Why a backup file cannot be read. No case holds a password, a key or an item's content.
public enum BackupFormatError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with a backup's magic bytes.
    case notABackup
    /// A backup of a format version this build does not read.
    case unsupportedVersion(UInt8)
    /// The password (or recovery key) does not open this backup: the header's key check fails.
    case wrongSecret(BackupSecretKind)
    /// The backup was made with the other kind of secret (a recovery key where a password was given, or the reverse).
    case secretKindMismatch(expected: BackupSecretKind)
    /// The file was changed or cut short: a checksum, an authentication tag or the layout does not hold.
    case damaged(String)
    /// The KDF parameters asked for are out of bounds (a damaged or hostile header).
    case unacceptableParameters(String)

    /// A sentence for people.
    public var description: String {
        switch self {
        case .notABackup: "the file is not a Coffer backup"
        case .unsupportedVersion(let version): "the backup's format version \(version) is not supported by this version of Coffer"
        case .wrongSecret(.password): "wrong backup password"
        case .wrongSecret(.recoveryKey): "wrong recovery key"
        case .wrongSecret(.recipient): "this keychain's recipient key does not open this backup: it was made for another keychain"
        case .secretKindMismatch(.password): "this backup is protected by a password, not a recovery key"
        case .secretKindMismatch(.recoveryKey): "this backup is protected by a recovery key, not a password"
        case .secretKindMismatch(.recipient): "this backup was made for a keychain's recipient key, not a password or a recovery key"
        case .damaged(let reason): "the backup file is damaged or was modified (\(reason))"
        case .unacceptableParameters(let reason): "the backup file is damaged or was modified (\(reason))"
        }
    }
}
