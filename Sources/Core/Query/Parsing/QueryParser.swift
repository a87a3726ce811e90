import Foundation
import KeychainModel

/// Turns Apple-style `SecItem…` dictionaries into validated, typed requests, or a ``QueryRejection`` with
/// the exact `OSStatus` Apple returns and why (§2, §3.2). Pure: no I/O, no access-group or lock-state
/// checks (those are the engine's, G1, G13, G16, G17), but every request carries what the engine needs for them.
public enum QueryParser {
    /// Parses `SecItemAdd`'s attributes.
    ///
    /// Rules: G2–G12, G14, G15, G18, G22, A3, A4, A6, A8, A9 (decided: -50, see ``AddRequest``), A11
    /// (accepted, as Apple's daemon does: a synchronizable `…ThisDeviceOnly` item is stored and never leaves
    /// the device), plus the §1.5 defaults.
    public static func parseAdd(_ query: QueryDictionary) throws(QueryRejection) -> AddRequest {
        let parsed = try QueryScanner.scan(query, call: .add)
        if !parsed.matchKeys.isEmpty || parsed.usesItemList {  // A9, as decided
            let key = parsed.matchKeys.min() ?? QueryKey.useItemList
            throw .param(.a9, key: key, "SecItemAdd takes no \(AppleNames.key(key)); Coffer refuses it rather than add nothing")
        }
        if parsed.persistentRef?.isLegacy == true {  // the UUID form is ignored
            throw .param(.a6, key: QueryKey.valuePersistentRef, "SecItemAdd takes no legacy 12-byte kSecValuePersistentRef")
        }
        if parsed.itemClass == .identity {
            throw .param(
                nil, key: QueryKey.itemClass,
                "kSecClassIdentity items are added only by reference (kSecValueRef), which Coffer does not support")
        }
        return try AddAssembler(parsed: parsed).request()
    }

    /// Parses `SecItemCopyMatching`'s query.
    ///
    /// Rules: G2–G12, G14, G15, G18, C2, C3, C4, C8 (a missing result pointer is the caller's business:
    /// the request simply carries the return options), default limit One (§2.3), sync filter (§2.5).
    public static func parseSearch(_ query: QueryDictionary) throws(QueryRejection) -> SearchRequest {
        let parsed = try QueryScanner.scan(query, call: .search)
        if parsed.usesItemList {
            throw .param(.c2, key: QueryKey.useItemList, "SecItemCopyMatching does not support kSecUseItemList")
        }
        let certificateLike = parsed.itemClass == .certificate || parsed.itemClass == .identity
        if !certificateLike,
            !parsed.matchKeys.isDisjoint(with: [QueryKey.matchIssuers, QueryKey.matchPolicy])
        {
            let key = parsed.matchKeys.intersection([QueryKey.matchIssuers, QueryKey.matchPolicy]).min()
            throw matchKeyOfOtherClass(key, appliesTo: "certificates and identities", parsed)
        }
        if parsed.itemClass != .internetPassword, parsed.matchKeys.contains(QueryKey.matchHostOrSubdomainOfHost) {
            throw matchKeyOfOtherClass(QueryKey.matchHostOrSubdomainOfHost, appliesTo: "internet passwords", parsed)
        }
        if parsed.persistentRef != nil, parsed.hasAttributeFilters { throw persistentRefWithFilters(.c4, parsed) }
        return SearchAssembler.request(parsed, limit: parsed.matchLimit ?? .one, returns: parsed.returns)
    }

    /// Parses `SecItemUpdate`'s query and `attributesToUpdate`.
    ///
    /// Rules on the query: G2–G12, G14, G15, G18, U1, U2, U3, U8, U14. On the changes: U4, U5, U7, U13,
    /// G5, G9–G11, A11 (accepted), `musr` dropped, `kSecAttrSynchronizableAny` ignored.
    public static func parseUpdate(
        query: QueryDictionary, attributesToUpdate: QueryDictionary
    ) throws(QueryRejection) -> UpdateRequest {
        let parsed = try QueryScanner.scan(query, call: .updateQuery)
        if !parsed.returns.isEmpty {
            let key = returnKeys.first { ReturnOptions.option(forKey: $0).map(parsed.returns.contains) == true }
            throw .param(.u1, key: key, "SecItemUpdate returns nothing, so its query may set no kSecReturn… key to true")
        }
        if let key = parsed.matchKeys.min() {
            throw .param(.u2, key: key, "SecItemUpdate's query takes no kSecMatch… keys; got \(AppleNames.key(key))")
        }
        if parsed.usesItemList {
            throw .param(.u3, key: QueryKey.useItemList, "SecItemUpdate's query does not support kSecUseItemList")
        }
        if parsed.persistentRef?.isLegacy == true, parsed.hasAttributeFilters { throw persistentRefWithFilters(.u8, parsed) }
        try ClientChecks.checkChanges(attributesToUpdate, query: query)
        let search = SearchAssembler.request(parsed, limit: .all, returns: [])
        return try ChangesScanner.request(attributesToUpdate, search: search)
    }

    /// Parses `SecItemDelete`'s query.
    ///
    /// Rules: G2–G12, G14, G15, G18, D1 (`kSecMatchLimitAll` accepted: a delete's own limit is unlimited),
    /// D2, D5 (return keys, `kSecValueData` and `kSecUseItemList` are accepted and ignored), D6.
    public static func parseDelete(_ query: QueryDictionary) throws(QueryRejection) -> DeleteRequest {
        let parsed = try QueryScanner.scan(query, call: .delete)
        let unlimited: Set<String> = parsed.matchLimit == .all ? [QueryKey.matchLimit] : []
        if let key = parsed.matchKeys.subtracting(unlimited).min() {
            throw .param(
                .d1, key: key,
                key == QueryKey.matchLimit
                    ? "SecItemDelete deletes every match: its kSecMatchLimit may only be kSecMatchLimitAll"
                    : "SecItemDelete takes no kSecMatch… keys; got \(AppleNames.key(key))")
        }
        if parsed.persistentRef?.isLegacy == true, parsed.hasAttributeFilters { throw persistentRefWithFilters(.d2, parsed) }
        return DeleteRequest(search: SearchAssembler.request(parsed, limit: .all, returns: []))
    }

    private static let returnKeys = [
        QueryKey.returnData, QueryKey.returnAttributes, QueryKey.returnRef, QueryKey.returnPersistentRef,
    ]

    /// C3: a match key that applies only to other classes.
    private static func matchKeyOfOtherClass(_ key: String?, appliesTo classes: String, _ parsed: ParsedQuery) -> QueryRejection {
        let name = key.map { AppleNames.key($0) } ?? "this match key"
        return .unimplemented(
            .c3, key: key, "\(name) applies only to \(classes), not to \(AppleNames.itemClass(parsed.itemClass))")
    }

    /// C4, U8, D2: a persistent reference together with attribute filters.
    private static func persistentRefWithFilters(_ rule: KeychainRule, _ parsed: ParsedQuery) -> QueryRejection {
        let filter = parsed.attributeFilterCodes.first.map { AppleNames.key($0, in: parsed.itemClass) } ?? "attributes"
        let reference = rule == .c4 ? "kSecValuePersistentRef" : "a legacy 12-byte kSecValuePersistentRef"
        return .param(
            rule, key: QueryKey.valuePersistentRef, "\(reference) cannot be combined with attribute filters (\(filter))")
    }
}
