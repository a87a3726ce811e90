import Foundation

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
