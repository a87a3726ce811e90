import Foundation
import KeychainModel
import Query

/// Which of macOS's two keychains a call's dictionary can reach, decided as Apple's `SecItemCategorizeQuery`
/// (`OSX/libsecurity_keychain/lib/SecItem.cpp`) decides it.
///
/// With `kSecUseDataProtectionKeychain` (or its old name `kSecAttrNoLegacy`) the flag decides alone. Without
/// it, keys that only the data-protection keychain has (`kSecAttrAccessControl`, `kSecAttrTokenID`, a true
/// `kSecAttrSynchronizable`, the token access group, a persistent reference) rule out the file keychain, and
/// keys only the file keychain has (``MacOSKey``, `kSecMatchItemList`, `kSecMatchSearchList`,
/// `kSecUseItemList`, or no class and no reference) rule out the data-protection one. A dictionary that
/// rules out both is `errSecParam`, as on macOS. Coffer has one keychain, so the route decides only that
/// error and whether the file keychain's type checks apply (``MacOSShim``).
struct KeychainRoute: Equatable {
    /// Whether the data-protection keychain (the iOS one) can serve the call.
    var dataProtection: Bool
    /// Whether the legacy file keychain can serve the call.
    var fileKeychain: Bool

    /// The keys whose presence means the file keychain, as Apple lists them.
    static let fileKeychainOnlyKeys = [
        QueryKey.matchItemList, QueryKey.matchSearchList, MacOSKey.matchSubjectStartsWith,
        MacOSKey.matchSubjectEndsWith, MacOSKey.matchSubjectWholeString, MacOSKey.matchDiacriticInsensitive,
        MacOSKey.matchWidthInsensitive, QueryKey.useItemList, MacOSKey.useKeychain, MacOSKey.access,
    ]

    /// The route of `query`, or `errSecParam` when neither keychain can serve it.
    init(of query: QueryDictionary) throws(KeychainFailure) {
        let flag = query[QueryKey.useDataProtectionKeychain]
        if query[QueryKey.sharingGroup] != nil, let flag, !Self.isTrue(flag) {
            throw KeychainFailure(
                .param, reason: "kSecAttrSharingGroup needs the data-protection keychain, and kSecUseDataProtectionKeychain is false")
        }
        if let flag {
            let dataProtection = Self.isTrue(flag) || query[QueryKey.sharingGroup] != nil
            self.init(dataProtection: dataProtection, fileKeychain: !dataProtection)
            return
        }
        var route = KeychainRoute(dataProtection: true, fileKeychain: true)
        if query[QueryKey.tokenID] != nil || query[QueryKey.accessControl] != nil { route.fileKeychain = false }
        if query[QueryKey.accessGroup] == .string(QueryConstant.accessGroupToken) { route.fileKeychain = false }
        if let sync = query[QueryKey.synchronizable], Self.isTrue(sync) { route.fileKeychain = false }
        if query[QueryKey.valuePersistentRef] != nil { route.fileKeychain = false }
        if Self.fileKeychainOnlyKeys.contains(where: { query[$0] != nil }) { route.dataProtection = false }
        if query[QueryKey.itemClass] == nil, query[QueryKey.valuePersistentRef] == nil, query[QueryKey.valueRef] == nil {
            route.dataProtection = false
        }
        guard route.dataProtection || route.fileKeychain else {
            throw KeychainFailure(
                .param,
                reason: "the dictionary has keys only macOS's file keychain knows ("
                    + Self.fileKeychainOnlyKeys.filter { query[$0] != nil }.map(MacOSKey.appleName(of:)).joined(separator: ", ")
                    + ") and keys only its data-protection keychain knows; no keychain can serve it")
        }
        self = route
    }

    init(dataProtection: Bool, fileKeychain: Bool) {
        self.dataProtection = dataProtection
        self.fileKeychain = fileKeychain
    }

    /// A flag as Apple's `readNumber` reads it: a non-zero number or true boolean, or a string that is
    /// exactly a non-zero integer's decimal form; anything else (`kSecAttrSynchronizableAny` too) is false.
    static func isTrue(_ value: KeychainValue) -> Bool {
        switch value {
        case .bool(let flag): flag
        case .number(let number): Int32(truncatingIfNeeded: number) != 0
        case .double(let number): number.rounded(.towardZero) != 0
        case .string(let text): Int32(text).map { $0 != 0 && String($0) == text } ?? false
        default: false
        }
    }
}
