import Foundation

// The Core Foundation vocabulary that keychain code uses, as Foundation types.
//
// Swift on Linux has no `CFDictionary` that a `[String: Any]` converts to (`import CoreFoundation`'s
// `CFDictionary` refuses `as CFDictionary`), so each CF type here is the Foundation class that Apple's
// toll-free bridging pairs it with. `query as CFDictionary`, `data as CFData`, `result as? Data`,
// `result as? [String: Any]` and `result as? NSDictionary` then behave as on Apple platforms.
//
// Known limit: a client file that imports this module *and* `CoreFoundation` sees two `CFDictionary`s,
// and Swift reports "'CFDictionary' is ambiguous". Import `Foundation` instead, which does not expose
// Core Foundation's types on Linux, or write `Security.CFDictionary`.

/// Any Core Foundation object.
public typealias CFTypeRef = AnyObject
/// `CFStringRef`: an `NSString`.
public typealias CFString = NSString
/// The legacy spelling of ``CFString``.
public typealias CFStringRef = CFString
/// `CFDictionaryRef`: an `NSDictionary`. Both `[String: Any]` and `NSDictionary` values pass `as CFDictionary`.
public typealias CFDictionary = NSDictionary
/// The legacy spelling of ``CFDictionary``.
public typealias CFDictionaryRef = CFDictionary
/// `CFMutableDictionaryRef`: an `NSMutableDictionary`.
public typealias CFMutableDictionary = NSMutableDictionary
/// The legacy spelling of ``CFMutableDictionary``.
public typealias CFMutableDictionaryRef = CFMutableDictionary
/// `CFDataRef`: an `NSData`.
public typealias CFData = NSData
/// The legacy spelling of ``CFData``.
public typealias CFDataRef = CFData
/// `CFArrayRef`: an `NSArray`.
public typealias CFArray = NSArray
/// The legacy spelling of ``CFArray``.
public typealias CFArrayRef = CFArray
/// `CFNumberRef`: an `NSNumber`.
public typealias CFNumber = NSNumber
/// The legacy spelling of ``CFNumber``.
public typealias CFNumberRef = CFNumber
/// `CFBooleanRef`: the boolean `NSNumber` (``kCFBooleanTrue`` / ``kCFBooleanFalse``).
public typealias CFBoolean = NSNumber
/// The legacy spelling of ``CFBoolean``.
public typealias CFBooleanRef = CFBoolean
/// `CFDateRef`: an `NSDate`.
public typealias CFDate = NSDate
/// The legacy spelling of ``CFDate``.
public typealias CFDateRef = CFDate
/// `CFErrorRef`: an `NSError`, handed out through `Unmanaged<CFError>` out-parameters as on Apple platforms.
public typealias CFError = NSError
/// The legacy spelling of ``CFError``.
public typealias CFErrorRef = CFError
/// A ``CFError``'s domain.
public typealias CFErrorDomain = CFString
/// `CFIndex`.
public typealias CFIndex = Int
/// `CFOptionFlags`.
public typealias CFOptionFlags = UInt
/// `CFTypeID`: what ``CFGetTypeID(_:)`` returns.
public typealias CFTypeID = UInt

/// `CFAllocatorRef`. Coffer has one allocator, so the only value is ``kCFAllocatorDefault`` (nil, as on Apple platforms).
public final class CFAllocator: Sendable {
    private init() {}
}

/// The legacy spelling of ``CFAllocator``.
public typealias CFAllocatorRef = CFAllocator

/// The default allocator: `nil`, as on Apple platforms.
public let kCFAllocatorDefault: CFAllocator! = nil

/// The boolean `true` (`CFBoolean!`, as Apple declares it, so both `kCFBooleanTrue` and `kCFBooleanTrue!` compile).
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// The boolean `false`.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// The value of a ``CFBoolean``.
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool {
    boolean.boolValue
}

/// The error domain of `OSStatus` codes: every ``CFError`` the `Security` module makes is in it.
///
/// `nonisolated(unsafe)`: `NSString` is not `Sendable` in swift-corelibs-foundation; this instance is
/// immutable after its one-time, thread-safe initialisation.
nonisolated(unsafe) public let kCFErrorDomainOSStatus: CFErrorDomain = "NSOSStatusErrorDomain"

/// The error's code (an `OSStatus` for errors from this module).
public func CFErrorGetCode(_ error: CFError!) -> CFIndex {
    error.code
}

/// The error's domain (``kCFErrorDomainOSStatus`` for errors from this module).
public func CFErrorGetDomain(_ error: CFError!) -> CFErrorDomain! {
    NSString(string: error.domain)
}

/// The error's user information: the description (`NSLocalizedDescription`) says what went wrong.
public func CFErrorCopyUserInfo(_ error: CFError!) -> CFDictionary! {
    NSDictionary(dictionary: error.userInfo)
}

/// A description of the error for people.
public func CFErrorCopyDescription(_ error: CFError!) -> CFString! {
    NSString(string: error.localizedDescription)
}

// MARK: - Type identifiers

/// The type identifiers ``CFGetTypeID(_:)`` returns. Values are Coffer's own; compare them only with the
/// `…GetTypeID()` functions, as on Apple platforms.
enum TypeIdentifier: CFTypeID {
    case notAType = 0
    case string = 7
    case data = 20
    case dictionary = 18
    case array = 19
    case number = 22
    case boolean = 21
    case date = 42
    case null = 16
    case error = 31
    case uuid = 33
    case accessControl = 300
}

/// The type of a Core Foundation object, for comparison with ``CFStringGetTypeID()``, ``SecAccessControlGetTypeID()`` and
/// the other `…GetTypeID()` functions. Objects of other types give `0`.
public func CFGetTypeID(_ object: CFTypeRef!) -> CFTypeID {
    guard let object else { return TypeIdentifier.notAType.rawValue }
    if object is SecAccessControl { return TypeIdentifier.accessControl.rawValue }
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
