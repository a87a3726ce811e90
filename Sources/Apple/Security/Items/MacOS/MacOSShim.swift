import Foundation
import KeychainModel
import Query

/// What macOS's `SecItem` functions do to a dictionary before its keychain sees it, done for dictionaries
/// that only macOS code sends (Apple's `SecItemCategorizeQuery` and `SecItemCopyTranslatedAttributes`,
/// `OSX/libsecurity_keychain/lib/SecItem.cpp`).
///
/// A dictionary is macOS code's when it says `kSecUseDataProtectionKeychain` (true or false), uses a key
/// only macOS has (``MacOSKey``), or holds a ``SecKeychainItem`` or ``SecKeychain``. For those, as on macOS:
/// - a dictionary that only macOS's file keychain and only its data-protection keychain could serve
///   (`kSecUseKeychain` with `kSecAttrAccessControl`, say) is `errSecParam` (``KeychainRoute``);
/// - where the file keychain may serve it, `kSecUseKeychain`, `kSecAttrAccess`, `kSecMatchSearchList` and
///   `kSecMatchItemList` must hold the types it takes, else `errSecParam`;
/// - `kSecUseKeychain`, `kSecMatchSearchList` and `kSecAttrAccess` are removed (one keychain; items are
///   kept apart by access group, not by a `SecAccess`);
/// - `SecItemAdd`, `SecItemUpdate` and `SecItemDelete` lose the `kSecMatch…` keys macOS removes
///   (so `kSecMatchLimitOne` on a delete is accepted, as on macOS, where iOS says `errSecParam`), update and
///   delete lose their `kSecReturn…` keys and `kSecValueData`, and a search loses `kSecValueData`;
/// - on the data-protection route `kSecAttrModificationDate` is removed from every dictionary (macOS
///   stops it from being a filter, as code passes a result's attributes back as a query) and
///   `kSecAttrSynchronizable` from one with a persistent reference;
/// - a ``SecKeychainItem`` as `kSecValueRef` becomes its persistent reference (an add by it stays
///   `errSecParam`: only keys, certificates and identities are added by reference), and a `kSecMatchItemList`
///   of ``SecKeychainItem``s is handed back to be applied item by item (``KeychainItemListCall``).
/// Other dictionaries, such as every one iOS code sends, pass unchanged.
enum MacOSShim {
    /// A call's dictionary after the shim.
    struct Translated {
        /// The dictionary the keychain is asked with.
        var query: QueryDictionary
        /// The items a `kSecMatchItemList` limits the call to; nil when there is no such list.
        var itemList: [SecKeychainItem]?
    }

    /// The `kSecMatch…` keys macOS removes from adds, updates and deletes.
    static let matchKeysRemovedOutsideSearches = [
        QueryKey.matchPolicy, QueryKey.matchItemList, QueryKey.matchSearchList, QueryKey.matchIssuers,
        QueryKey.matchEmailAddressIfPresent, QueryKey.matchSubjectContains, QueryKey.matchCaseInsensitive,
        QueryKey.matchTrustedOnly, QueryKey.matchValidOnDate, QueryKey.matchLimit, QueryConstant.matchLimitOne,
        QueryConstant.matchLimitAll,
    ]

    /// The keys only macOS code sends, whatever their values.
    static let macOSOnlyKeys = [
        QueryKey.useDataProtectionKeychain, MacOSKey.useKeychain, MacOSKey.access, MacOSKey.matchDiacriticInsensitive,
        MacOSKey.matchWidthInsensitive, MacOSKey.matchSubjectStartsWith, MacOSKey.matchSubjectEndsWith,
        MacOSKey.matchSubjectWholeString,
    ]

    /// The keys under which a dictionary may show it is macOS code's.
    static let keysWorthALook = Set(macOSOnlyKeys + [QueryKey.valueRef, QueryKey.matchItemList, QueryKey.matchSearchList])

    /// `query` (bridged from `source`) as macOS would hand it to its keychain for `call`; `specialKeys`, when
    /// given, says whether `query` holds any of ``keysWorthALook`` (``SpecialKeys/macOS``).
    static func translate(
        _ query: QueryDictionary, from source: NSDictionary, for call: ItemCallKind, specialKeys: SpecialKeys = .all
    ) throws(KeychainFailure) -> Translated {
        // One pass over the (few) keys: most dictionaries hold none of these, and pay only this.
        guard specialKeys.contains(.macOS),
            query.entries.keys.contains(where: { $0.stringValue.map(keysWorthALook.contains) ?? false })
        else {
            return Translated(query: query)
        }
        let objects = MacOSObjects(source)
        let itemList = objects.itemList
        let reference = objects.valueReference
        guard
            macOSOnlyKeys.contains(where: { query[$0] != nil }) || itemList != nil || reference != nil
                || objects.searchesKeychains
        else { return Translated(query: query) }

        let route = try KeychainRoute(of: query)
        if route.fileKeychain {
            for key in [MacOSKey.useKeychain, MacOSKey.access, QueryKey.matchSearchList, QueryKey.matchItemList] {
                if let expected = objects.wrongType(at: key) {
                    throw KeychainFailure(.param, reason: "\(MacOSKey.appleName(of: key)) must be \(expected)")
                }
            }
        }
        var translated = query
        for key in [QueryKey.useDataProtectionKeychain, MacOSKey.useKeychain, MacOSKey.access, QueryKey.matchSearchList] {
            translated[key] = nil
        }
        if let reference, call != .add {
            translated[QueryKey.valueRef] = nil
            translated[QueryKey.valuePersistentRef] = .data(reference.persistentReference)
        }
        if itemList != nil { translated[QueryKey.matchItemList] = nil }
        if call != .copyMatching {
            for key in matchKeysRemovedOutsideSearches { translated[key] = nil }
        }
        if call == .update || call == .delete {
            for key in ReturnKeys.all { translated[key] = nil }
        }
        if call != .add { translated[QueryKey.valueData] = nil }
        if route.dataProtection {
            translated[QueryKey.modificationDate] = nil
            if translated[QueryKey.valuePersistentRef] != nil { translated[QueryKey.synchronizable] = nil }
        }
        return Translated(query: translated, itemList: call == .add ? nil : itemList)
    }

    /// `SecItemUpdate`'s changes from macOS code: a ``SecAccess`` as `kSecAttrAccess` is dropped, as it is
    /// from an add.
    static func translateChanges(_ changes: QueryDictionary, from source: NSDictionary) -> QueryDictionary {
        guard changes[MacOSKey.access] != nil, MacOSObjects(source).wrongType(at: MacOSKey.access) == nil else {
            return changes
        }
        var translated = changes
        translated[MacOSKey.access] = nil
        return translated
    }
}
