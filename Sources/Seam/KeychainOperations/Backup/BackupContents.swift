import KeychainModel

/// The answer to ``Request/exportBackup(_:)``: the items that may leave the device, as a backup's plaintext
/// record stream (BackupFormat's `BackupRecordStream`), and how many were left behind and why.
public struct BackupContents: Sendable, Equatable {
    /// The items, as record streams of a few MiB each, in order, in zeroizing memory (one stream when joined).
    public var parts: [SecretBytes]
    /// How many items it holds.
    public var itemCount: Int
    /// The items that stay on this device.
    public var leftBehind: LeftBehind

    /// Contents.
    public init(parts: [SecretBytes], itemCount: Int, leftBehind: LeftBehind) {
        self.parts = parts
        self.itemCount = itemCount
        self.leftBehind = leftBehind
    }

    /// Items a backup leaves behind, by reason (reference §4.3–§4.4, §7.5).
    public struct LeftBehind: Sendable, Equatable {
        /// `…ThisDeviceOnly` items (`aku`, `cku`, `dku`): Apple's backups restore them only onto the same device.
        public var thisDeviceOnly: Int
        /// `WhenPasscodeSetThisDeviceOnly` items (`akpu`): never backed up.
        public var passcodeSetOnly: Int
        /// Token keys (`tkid` set, Secure-Enclave-style) and keys marked not extractable: they never leave.
        public var nonExtractableKeys: Int
        /// Items whose access control is bound to this device: to the fingerprints enrolled here
        /// (`biometryCurrentSet`), or system-bound (`sysb`).
        public var deviceBound: Int

        /// Counts.
        public init(thisDeviceOnly: Int = 0, passcodeSetOnly: Int = 0, nonExtractableKeys: Int = 0, deviceBound: Int = 0) {
            self.thisDeviceOnly = thisDeviceOnly
            self.passcodeSetOnly = passcodeSetOnly
            self.nonExtractableKeys = nonExtractableKeys
            self.deviceBound = deviceBound
        }

        /// All of them.
        public var total: Int { thisDeviceOnly + passcodeSetOnly + nonExtractableKeys + deviceBound }
    }
}
