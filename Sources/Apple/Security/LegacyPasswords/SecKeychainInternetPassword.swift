import KeychainModel
import Query

// macOS's legacy calls for Internet passwords, over the same items as the `SecItem…` calls: an item added
// here is a `kSecClassInternetPassword` item with `kSecAttrServer`, `kSecAttrAccount`, … and the reverse.

/// The `SecItem…` attributes of an Internet password's legacy arguments. Nil or empty strings, port 0,
/// ``SecProtocolType/any`` and ``SecAuthenticationType/any`` are left out.
private func internetAttributes(
    server: KeychainValue?, securityDomain: KeychainValue?, account: KeychainValue?, path: KeychainValue?,
    port: UInt16, protocol: SecProtocolType, authenticationType: SecAuthenticationType
) -> QueryDictionary {
    var attributes = QueryDictionary()
    attributes[QueryKey.server] = server
    attributes[QueryKey.securityDomain] = securityDomain
    attributes[QueryKey.account] = account
    attributes[QueryKey.path] = path
    if port != 0 { attributes[QueryKey.port] = .number(Int64(port)) }
    attributes[QueryKey.protocol] = `protocol`.attributeValue
    attributes[QueryKey.authenticationType] = authenticationType.attributeValue
    return attributes
}

/// Adds an Internet password (`SecKeychainAddInternetPassword`): a `kSecClassInternetPassword` item with
/// `kSecAttrServer`, `kSecAttrSecurityDomain`, `kSecAttrAccount`, `kSecAttrPath`, `kSecAttrPort`,
/// `kSecAttrProtocol` (the protocol's four characters, `"htps"` for ``SecProtocolType/HTTPS``) and
/// `kSecAttrAuthenticationType` (`"dflt"` for ``SecAuthenticationType/default``), and the `passwordLength`
/// bytes at `passwordData` as its secret. As on macOS its `kSecAttrLabel` is the server name.
///
/// - `keychain`: `nil` (or the object ``SecKeychainCopyDefault(_:)`` returns) for the one keychain.
/// - A nil string or a zero length leaves that attribute out, as do port 0 and the `.any` protocol and scheme.
/// - An item with the same server, account, port, protocol, scheme, path and domain: ``errSecDuplicateItem``.
/// - `itemRef`, when given, receives the new item on success.
@discardableResult
public func SecKeychainAddInternetPassword(
    _ keychain: SecKeychain?, _ serverNameLength: UInt32, _ serverName: UnsafePointer<CChar>?,
    _ securityDomainLength: UInt32, _ securityDomain: UnsafePointer<CChar>?, _ accountNameLength: UInt32,
    _ accountName: UnsafePointer<CChar>?, _ pathLength: UInt32, _ path: UnsafePointer<CChar>?, _ port: UInt16,
    _ protocol: SecProtocolType, _ authenticationType: SecAuthenticationType, _ passwordLength: UInt32,
    _ passwordData: UnsafeRawPointer, _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    let server = LegacyPasswordCall.text(serverName, serverNameLength)
    var attributes = internetAttributes(
        server: server, securityDomain: LegacyPasswordCall.text(securityDomain, securityDomainLength),
        account: LegacyPasswordCall.text(accountName, accountNameLength), path: LegacyPasswordCall.text(path, pathLength),
        port: port, protocol: `protocol`, authenticationType: authenticationType)
    attributes[QueryKey.label] = server
    return LegacyPasswordCall.add(
        "SecKeychainAddInternetPassword", attributes, itemClass: .internetPassword, passwordLength: passwordLength,
        passwordData: passwordData, itemRef: itemRef)
}

/// Finds the first Internet password matching the given attributes (`SecKeychainFindInternetPassword`).
///
/// - `keychainOrArray`: `nil`, a ``SecKeychain`` or an array of them; an empty array searches nothing
///   (``errSecItemNotFound``), anything else is ``errSecParam``.
/// - A nil string or a zero length, port 0, ``SecProtocolType/any`` and ``SecAuthenticationType/any``
///   match every value of that attribute.
/// - `passwordLength` and `passwordData`, when given, receive the password's length and a copy of its
///   bytes, which the caller frees with `SecKeychainItemFreeContent(nil, passwordData)`.
/// - `itemRef`, when given, receives the item.
/// - No match: ``errSecItemNotFound``, and nothing is written.
@discardableResult
public func SecKeychainFindInternetPassword(
    _ keychainOrArray: CFTypeRef?, _ serverNameLength: UInt32, _ serverName: UnsafePointer<CChar>?,
    _ securityDomainLength: UInt32, _ securityDomain: UnsafePointer<CChar>?, _ accountNameLength: UInt32,
    _ accountName: UnsafePointer<CChar>?, _ pathLength: UInt32, _ path: UnsafePointer<CChar>?, _ port: UInt16,
    _ protocol: SecProtocolType, _ authenticationType: SecAuthenticationType,
    _ passwordLength: UnsafeMutablePointer<UInt32>?, _ passwordData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ itemRef: UnsafeMutablePointer<SecKeychainItem?>?
) -> OSStatus {
    let search = internetAttributes(
        server: LegacyPasswordCall.text(serverName, serverNameLength),
        securityDomain: LegacyPasswordCall.text(securityDomain, securityDomainLength),
        account: LegacyPasswordCall.text(accountName, accountNameLength), path: LegacyPasswordCall.text(path, pathLength),
        port: port, protocol: `protocol`, authenticationType: authenticationType)
    return LegacyPasswordCall.find(
        "SecKeychainFindInternetPassword", search, keychainOrArray: keychainOrArray, passwordLength: passwordLength,
        passwordData: passwordData, itemRef: itemRef, itemClass: .internetPassword)
}
