import KeychainModel

/// What ``Request/exportBackup(_:)`` asks for: every item of the caller's access groups that may leave the
/// device, read inside the keychain service.
///
/// When the keychain has a passcode, the export needs it (counted and throttled as an unlock attempt is): a
/// backup holds every secret in the clear for whoever knows the backup's password, access-controlled items
/// included, so the person proves presence once for all of them.
public struct BackupExport: Sendable, Equatable {
    /// The keychain's passcode; nil when none is set.
    public var passcode: SecretBytes?

    /// An export request.
    public init(passcode: SecretBytes?) {
        self.passcode = passcode
    }
}
