import KeychainModel

/// ``Request/auditSetting(_:)``: reads, or changes, whether the keychain refuses secret reads its audit journal cannot
/// record (a full disk, a journal folder that cannot be written): Vault's behaviour, off unless the owner sets it.
public struct AuditSetting: Sendable, Equatable {
    /// The keychain's passcode; nil when none is set.
    public var passcode: SecretBytes?
    /// The new setting; nil only reads it.
    public var refuseUnrecordedReads: Bool?

    /// A read of the setting, or a change when `refuseUnrecordedReads` is given.
    public init(passcode: SecretBytes?, refuseUnrecordedReads: Bool? = nil) {
        self.passcode = passcode
        self.refuseUnrecordedReads = refuseUnrecordedReads
    }
}
