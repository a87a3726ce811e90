import KeychainModel
import Query

// macOS's legacy calls for generic passwords, over the same items as the `SecItem…` calls: an item added
// here is a `kSecClassGenericPassword` item with `kSecAttrService` and `kSecAttrAccount`, and the reverse.

/// Adds a generic password (`SecKeychainAddGenericPassword`): a `kSecClassGenericPassword` item whose
/// `kSecAttrService` is `serviceName`, `kSecAttrAccount` is `accountName` and secret is the
/// `passwordLength` bytes at `passwordData`; as on macOS its `kSecAttrLabel` is the service name too.
///
/// - `keychain`: `nil` (or the object ``SecKeychainCopyDefault(_:)`` returns) for the one keychain.
/// - A nil name or a zero length leaves that attribute out (an empty string, as for `SecItemAdd`).
/// - An item with the same service and account exists: ``errSecDuplicateItem``.
/// - `itemRef`, when given, receives the new item on success.
@discardableResult
public func SecKeychainAddGenericPassword(
    _ keychain: SecKeychain?, _ serviceNameLength: UInt32, _ serviceName: UnsafePointer<CChar>?,
    _ accountNameLength: UInt32, _ accountName: UnsafePointer<CChar>?, _ passwordLength: UInt32,
    _ passwordData: UnsafeRawPointer, _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    var attributes = QueryDictionary()
    if let service = LegacyPasswordCall.text(serviceName, serviceNameLength) {
        attributes[QueryKey.service] = service
        attributes[QueryKey.label] = service
    }
    attributes[QueryKey.account] = LegacyPasswordCall.text(accountName, accountNameLength)
    return LegacyPasswordCall.add(
        "SecKeychainAddGenericPassword", attributes, itemClass: .genericPassword, passwordLength: passwordLength,
        passwordData: passwordData, itemRef: itemRef)
}

/// Finds the first generic password with the given service and account (`SecKeychainFindGenericPassword`).
///
/// - `keychainOrArray`: `nil`, a ``SecKeychain`` or an array of them; an empty array searches nothing
///   (``errSecItemNotFound``), anything else is ``errSecParam``.
/// - A nil name or a zero length matches every value of that attribute.
/// - `passwordLength` and `passwordData`, when given, receive the password's length and a copy of its
///   bytes, which the caller frees with `SecKeychainItemFreeContent(nil, passwordData)`.
/// - `itemRef`, when given, receives the item.
/// - No match: ``errSecItemNotFound``, and nothing is written.
@discardableResult
public func SecKeychainFindGenericPassword(
    _ keychainOrArray: CFTypeRef?, _ serviceNameLength: UInt32, _ serviceName: UnsafePointer<CChar>?,
    _ accountNameLength: UInt32, _ accountName: UnsafePointer<CChar>?, _ passwordLength: UnsafeMutablePointer<UInt32>?,
    _ passwordData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    var search = QueryDictionary()
    search[QueryKey.service] = LegacyPasswordCall.text(serviceName, serviceNameLength)
    search[QueryKey.account] = LegacyPasswordCall.text(accountName, accountNameLength)
    return LegacyPasswordCall.find(
        "SecKeychainFindGenericPassword", search, keychainOrArray: keychainOrArray, passwordLength: passwordLength,
        passwordData: passwordData, itemRef: itemRef, itemClass: .genericPassword)
}
