import KeychainModel

/// Rules about a whole item that the engine must also apply after merging an update into a stored item,
/// so that the rule lives in one place.
public enum ItemRules {
    /// A11: a synchronizable item may not use a `…ThisDeviceOnly` protection class.
    ///
    /// Apple documents that `ThisDeviceOnly` items never leave the device and that such items cannot be
    /// synchronized, but its daemon source has no check (the reference marks the runtime behaviour unknown).
    /// Coffer follows the documented API and rejects the combination with ``KeychainStatus/param`` (-50),
    /// the status Apple uses for the comparable rule A4; otherwise an item promised to stay on this machine
    /// could be picked up by a future sync layer.
    public static func checkSynchronizable(_ isSynchronizable: Bool, protection: ProtectionClass) throws(QueryRejection) {
        if isSynchronizable, !protection.isMigratory { throw .synchronizableThisDeviceOnly(protection) }
    }

    /// The default protection class of a new item (§1.5): `dku` for the `com.apple.apsd` group, `dk` for
    /// certificates, `ak` otherwise.
    public static func defaultProtection(for itemClass: ItemClass, accessGroup: String?) -> ProtectionClass {
        if accessGroup == "com.apple.apsd" { return .alwaysThisDeviceOnly }
        return itemClass == .certificate ? .always : .whenUnlocked
    }
}
