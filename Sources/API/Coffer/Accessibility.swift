/// When an item's secret can be read: Apple's seven `kSecAttrAccessible…` classes.
///
/// The raw values are Apple's `pdmn` strings (`ak`, `ck`, `dk`, `aku`, `cku`, `dku`, `akpu`). Items
/// added without one are `ProtectionClass.whenUnlocked`, as on iOS. While the keychain is locked,
/// `whenUnlocked…` items cannot be read or added (`errSecInteractionNotAllowed`, -25308);
/// `afterFirstUnlock…` items can, once the keychain has been unlocked since it was opened.
public typealias Accessibility = ProtectionClass
