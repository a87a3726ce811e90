import KeychainModel

/// Rules about a whole item that the engine must also apply after merging an update into a stored item,
/// so that the rule lives in one place.
public enum ItemRules {
    /// The default protection class of a new item (§1.5): `dku` for the `com.apple.apsd` group, `dk` for
    /// certificates, `ak` otherwise.
    public static func defaultProtection(for itemClass: ItemClass, accessGroup: String?) -> ProtectionClass {
        if accessGroup == "com.apple.apsd" { return .alwaysThisDeviceOnly }
        return itemClass == .certificate ? .always : .whenUnlocked
    }
}
