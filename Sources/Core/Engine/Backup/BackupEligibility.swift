import KeychainModel
import Query

/// Which items may leave the device in a backup, and why the others stay (reference §4.3–§4.4, §7.5).
enum BackupEligibility {
    /// Why an item stays on this device.
    enum Reason: Sendable, Hashable, CaseIterable {
        /// `…ThisDeviceOnly` (`aku`, `cku`, `dku`): Apple's backups restore them onto the same device only.
        case thisDeviceOnly
        /// `akpu`: never backed up (§4.3).
        case passcodeSetOnly
        /// A token key (`tkid` set: its secret is a seal only this keychain's class key opens) or a key marked
        /// not extractable (`kSecAttrIsExtractable` false).
        case nonExtractableKey
        /// Bound to this device: an access control bound to the fingerprints enrolled here (`biometryCurrentSet`),
        /// or a system-bound item (`sysb`, §4.4).
        case deviceBound
    }

    /// Why the protection class keeps an item here; nil when it migrates. Decided without decrypting anything.
    static func reason(for protection: ProtectionClass) -> Reason? {
        switch protection {
        case .whenUnlocked, .afterFirstUnlock, .always: nil
        case .whenPasscodeSetThisDeviceOnly: .passcodeSetOnly
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly: .thisDeviceOnly
        }
    }

    /// Why an item whose class migrates still stays here, from its attributes; nil when it may leave.
    static func reason(for attributes: AttributeSet, in itemClass: ItemClass) -> Reason? {
        if let protection = protected(attributes), let reason = reason(for: protection) { return reason }
        if case .string(let token)? = attributes[QueryKey.tokenID], !token.isEmpty { return .nonExtractableKey }
        if itemClass == .key, case .number(0)? = attributes["extr"] { return .nonExtractableKey }
        if case .accessControl(let control)? = attributes[QueryKey.accessControl],
            control.boundBiometrySet != nil || control.flags.contains(.biometryCurrentSet)
        {
            return .deviceBound
        }
        if case .number(let bound)? = attributes[QueryKey.sysBound], bound != 0 { return .deviceBound }
        return nil
    }

    /// The protection class the attributes name (`pdmn`), if any.
    static func protected(_ attributes: AttributeSet) -> ProtectionClass? {
        guard case .string(let code)? = attributes[QueryKey.accessible] else { return nil }
        return ProtectionClass(rawValue: code)
    }
}
