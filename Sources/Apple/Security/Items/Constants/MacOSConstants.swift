import Foundation
import Query

// The keys that only macOS's `SecItem` functions know, with Apple's string values. What Coffer does with
// each is in docs/MacOSBranch.md. `nonisolated(unsafe)`: see CFString+ItemConstants.swift.

/// The `SecKeychain` to add to or search; there is one keychain, so it changes nothing (a value that is
/// not a ``SecKeychain`` is ``errSecParam`` unless the call says `kSecUseDataProtectionKeychain: true`).
nonisolated(unsafe) public let kSecUseKeychain: CFString = .constant(MacOSKey.useKeychain)
/// A legacy ``SecAccess`` for a new item. Dropped, as macOS's data-protection keychain drops it: items are
/// kept apart by access group.
nonisolated(unsafe) public let kSecAttrAccess: CFString = .constant(MacOSKey.access)
/// The deprecated name of ``kSecUseDataProtectionKeychain`` (the same key, `nleg`).
nonisolated(unsafe) public let kSecAttrNoLegacy: CFString = .constant(QueryKey.useDataProtectionKeychain)
/// Match strings ignoring diacritics (ignored in searches, as by macOS's data-protection keychain).
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = .constant(MacOSKey.matchDiacriticInsensitive)
/// Match strings ignoring character width (ignored in searches, as by macOS's data-protection keychain).
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = .constant(MacOSKey.matchWidthInsensitive)
/// Match certificates whose subject starts with a string (ignored in searches).
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = .constant(MacOSKey.matchSubjectStartsWith)
/// Match certificates whose subject ends with a string (ignored in searches).
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = .constant(MacOSKey.matchSubjectEndsWith)
/// Match certificates whose subject is exactly a string (ignored in searches).
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = .constant(MacOSKey.matchSubjectWholeString)
