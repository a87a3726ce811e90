import Foundation
import Query

// Apple's search keys and match limits (keychain reference §2).
// `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// Match certificates trusted under a policy.
nonisolated(unsafe) public let kSecMatchPolicy: CFString = .constant(QueryKey.matchPolicy)
/// Search only these items: ``SecKeychainItem``s are honoured (see docs/MacOSBranch.md); other values are ignored, as on iOS.
nonisolated(unsafe) public let kSecMatchItemList: CFString = .constant(QueryKey.matchItemList)
/// Search these keychains (an array of ``SecKeychain``; there is one keychain, so it changes nothing).
nonisolated(unsafe) public let kSecMatchSearchList: CFString = .constant(QueryKey.matchSearchList)
/// Match certificates issued by these names.
nonisolated(unsafe) public let kSecMatchIssuers: CFString = .constant(QueryKey.matchIssuers)
/// Match certificates with this e-mail address.
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = .constant(QueryKey.matchEmailAddressIfPresent)
/// Match subjects containing this string (ignored, as on iOS).
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = .constant(QueryKey.matchSubjectContains)
/// Compare case-insensitively (ignored, as on iOS).
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = .constant(QueryKey.matchCaseInsensitive)
/// Match only trusted certificates.
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = .constant(QueryKey.matchTrustedOnly)
/// Match certificates valid on this date.
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = .constant(QueryKey.matchValidOnDate)
/// How many items to return: ``kSecMatchLimitOne`` (the default), ``kSecMatchLimitAll`` or a number.
nonisolated(unsafe) public let kSecMatchLimit: CFString = .constant(QueryKey.matchLimit)
/// Match internet passwords for this host or its subdomains.
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = .constant(QueryKey.matchHostOrSubdomainOfHost)
/// Return at most one item.
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = .constant(QueryConstant.matchLimitOne)
/// Return every matching item.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = .constant(QueryConstant.matchLimitAll)
