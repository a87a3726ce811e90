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
