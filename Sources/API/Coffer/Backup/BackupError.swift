import BackupFormat
import KeychainModel

/// Why a backup or a restore failed. Never holds a password, a key or an item's secret.
public struct BackupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The password (or recovery key) does not open the backup.
        case wrongPassword
        /// The backup was protected with the other kind of secret (a recovery key rather than a password, or the reverse).
        case wrongKindOfSecret
        /// The file is damaged, cut short or was modified: nothing was restored.
        case damaged
        /// The file is not a Coffer backup, or one of a newer format.
        case notABackup
        /// The keychain refused (locked, a wrong keychain passcode, an access group the caller may not use…).
        case keychain
        /// The file could not be read or written.
        case file
    }

    /// What went wrong.
    public let kind: Kind
    /// A sentence for people.
    public let message: String
    /// The keychain's status, for ``Kind/keychain``.
    public let status: KeychainStatus?

    /// An error.
    public init(_ kind: Kind, _ message: String, status: KeychainStatus? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    /// The error for a format failure.
    init(_ error: BackupFormatError) {
        switch error {
        case .wrongSecret: self.init(.wrongPassword, error.description)
        case .secretKindMismatch: self.init(.wrongKindOfSecret, error.description)
        case .notABackup, .unsupportedVersion: self.init(.notABackup, error.description)
        case .damaged, .unacceptableParameters: self.init(.damaged, error.description + "; nothing was restored")
        }
    }

    /// The error for a keychain refusal.
    init(_ failure: KeychainFailure, doing: String) {
        var text = "\(doing): \(failure.status.name) (\(failure.status.code))"
        if let reason = failure.reason { text += ": \(reason)" }
        self.init(.keychain, text, status: failure.status)
    }

    /// The message.
    public var description: String { message }
}
