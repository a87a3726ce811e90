import Foundation

/// The type of a Core Foundation object, for comparison with ``CFStringGetTypeID()``, ``SecAccessControlGetTypeID()`` and
/// the other `…GetTypeID()` functions. Objects of other types give `0`.
public func CFGetTypeID(_ object: CFTypeRef!) -> CFTypeID {
    guard let object else { return TypeIdentifier.notAType.rawValue }
    if object is SecAccessControl { return TypeIdentifier.accessControl.rawValue }
    if object is SecKey { return TypeIdentifier.key.rawValue }
    if object is SecCertificate { return TypeIdentifier.certificate.rawValue }
    if object is SecIdentity { return TypeIdentifier.identity.rawValue }
    if object is SecPolicy { return TypeIdentifier.policy.rawValue }
    if object is SecTrust { return TypeIdentifier.trust.rawValue }
    if object is SecKeychainItem { return TypeIdentifier.keychainItem.rawValue }
    if object is SecKeychain { return TypeIdentifier.keychain.rawValue }
    if object is SecAccess { return TypeIdentifier.access.rawValue }
    if object is NSError { return TypeIdentifier.error.rawValue }
    let identifier: TypeIdentifier =
        switch ValueBridge.value(of: object) {
        case .string: .string
        case .data: .data
        case .number, .double: .number
        case .bool: .boolean
        case .date: .date
        case .null: .null
        case .uuid: .uuid
        case .array: .array
        case .dictionary: .dictionary
        case .accessControl: .accessControl
        case .itemReference(let reference):
            switch reference.itemClass {
            case .certificate: .certificate
            case .identity: .identity
            default: .key
            }
        case .unsupported: object is NSDictionary ? .dictionary : .notAType
        }
    return identifier.rawValue
}

/// The type identifier of ``CFString``.
public func CFStringGetTypeID() -> CFTypeID { TypeIdentifier.string.rawValue }
/// The type identifier of ``CFData``.
public func CFDataGetTypeID() -> CFTypeID { TypeIdentifier.data.rawValue }
/// The type identifier of ``CFDictionary``.
public func CFDictionaryGetTypeID() -> CFTypeID { TypeIdentifier.dictionary.rawValue }
/// The type identifier of ``CFArray``.
public func CFArrayGetTypeID() -> CFTypeID { TypeIdentifier.array.rawValue }
/// The type identifier of a non-boolean ``CFNumber``.
public func CFNumberGetTypeID() -> CFTypeID { TypeIdentifier.number.rawValue }
/// The type identifier of ``CFBoolean``.
public func CFBooleanGetTypeID() -> CFTypeID { TypeIdentifier.boolean.rawValue }
/// The type identifier of ``CFDate``.
public func CFDateGetTypeID() -> CFTypeID { TypeIdentifier.date.rawValue }
/// The type identifier of ``CFError``.
public func CFErrorGetTypeID() -> CFTypeID { TypeIdentifier.error.rawValue }
