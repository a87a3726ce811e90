import KeychainModel
import Query

/// Which items follow their owner to the account's other devices, as Apple's keychain decides it: `sync` set, a
/// protection class that migrates (WhenUnlocked, AfterFirstUnlock, Always; never `…ThisDeviceOnly`, whose adds are
/// still accepted and stay here), and nothing that binds the item to this device: a token key (`tkid`: its secret is
/// a seal only this keychain's class key opens) or an access control bound to the fingerprints enrolled here, or a
/// system-bound item. The rules a backup applies, less one: a key marked not extractable still syncs, since
/// extractability is about exporting a key's bytes to a caller, not about the owner's devices.
enum SyncEligibility {
    /// Whether the protection class lets an item leave the device. Decided without decrypting anything.
    static func allows(_ protection: ProtectionClass) -> Bool {
        BackupEligibility.reason(for: protection) == nil
    }

    /// Whether an item with these attributes syncs.
    static func syncs(_ attributes: AttributeSet, in itemClass: ItemClass) -> Bool {
        guard case .number(let flag)? = attributes[QueryKey.synchronizable], flag != 0 else { return false }
        switch BackupEligibility.reason(for: attributes, in: itemClass) {
        case nil: return true
        case .nonExtractableKey:
            if case .string(let token)? = attributes[QueryKey.tokenID], !token.isEmpty { return false }
            return true
        case .thisDeviceOnly, .passcodeSetOnly, .deviceBound: return false
        }
    }
}
