import Foundation
import KeychainModel

/// Turns Apple-style `SecItem…` dictionaries into validated, typed requests, or the exact `OSStatus` Apple
/// returns (§2, §3.2). Pure: no I/O, no access-group or lock-state checks (those are the engine's, G1, G13,
/// G16, G17), but every request carries what the engine needs for them.
public enum QueryParser {
    /// Parses `SecItemAdd`'s attributes.
    ///
    /// Rules: G2–G12, G14, G15, G18, G22, A3, A4, A6, A8, A9 (decided: -50, see ``AddRequest``), A11
    /// (decided: -50, see ``ItemRules/checkSynchronizable(_:protection:)``), plus the §1.5 defaults.
    public static func parseAdd(_ query: QueryDictionary) throws(KeychainStatus) -> AddRequest {
        let parsed = try QueryScanner.scan(query, call: .add)
        if !parsed.matchKeys.isEmpty || parsed.usesItemList { throw .param }  // A9, as decided
        if parsed.persistentRef?.isLegacy == true { throw .param }  // A6; the UUID form is ignored
        if parsed.itemClass == .identity { throw .param }  // identities are added only by reference
        return try AddAssembler(parsed: parsed).request()
    }

    /// Parses `SecItemCopyMatching`'s query.
    ///
    /// Rules: G2–G12, G14, G15, G18, C2, C3, C4, C8 (a missing result pointer is the caller's business:
    /// the request simply carries the return options), default limit One (§2.3), sync filter (§2.5).
    public static func parseSearch(_ query: QueryDictionary) throws(KeychainStatus) -> SearchRequest {
        let parsed = try QueryScanner.scan(query, call: .search)
        if parsed.usesItemList { throw .param }  // C2
        let certificateLike = parsed.itemClass == .certificate || parsed.itemClass == .identity
        if !certificateLike,
            !parsed.matchKeys.isDisjoint(with: [QueryKey.matchIssuers, QueryKey.matchPolicy])
        {
            throw .unimplemented  // C3
        }
        if parsed.itemClass != .internetPassword, parsed.matchKeys.contains(QueryKey.matchHostOrSubdomainOfHost) {
            throw .unimplemented  // C3
        }
        if parsed.persistentRef != nil, parsed.hasAttributeFilters { throw .param }  // C4
        return SearchAssembler.request(parsed, limit: parsed.matchLimit ?? .one, returns: parsed.returns)
    }

    /// Parses `SecItemUpdate`'s query and `attributesToUpdate`.
    ///
    /// Rules on the query: G2–G12, G14, G15, G18, U1, U2, U3, U8, U14. On the changes: U4, U5, U7, U13,
    /// G5, G9–G11, A11, `musr` dropped, `kSecAttrSynchronizableAny` ignored.
    public static func parseUpdate(
        query: QueryDictionary, attributesToUpdate: QueryDictionary
    ) throws(KeychainStatus) -> UpdateRequest {
        let parsed = try QueryScanner.scan(query, call: .updateQuery)
        if !parsed.returns.isEmpty { throw .param }  // U1
        if !parsed.matchKeys.isEmpty { throw .param }  // U2
        if parsed.usesItemList { throw .param }  // U3
        if parsed.persistentRef?.isLegacy == true, parsed.hasAttributeFilters { throw .param }  // U8
        try ClientChecks.checkChanges(attributesToUpdate, query: query)
        let search = SearchAssembler.request(parsed, limit: .all, returns: [])
        return try ChangesScanner.request(attributesToUpdate, search: search)
    }

    /// Parses `SecItemDelete`'s query.
    ///
    /// Rules: G2–G12, G14, G15, G18, D1, D2, D5 (return keys, `kSecValueData` and `kSecUseItemList` are
    /// accepted and ignored), D6.
    public static func parseDelete(_ query: QueryDictionary) throws(KeychainStatus) -> DeleteRequest {
        let parsed = try QueryScanner.scan(query, call: .delete)
        if !parsed.matchKeys.isEmpty { throw .param }  // D1
        if parsed.persistentRef?.isLegacy == true, parsed.hasAttributeFilters { throw .param }  // D2
        return DeleteRequest(search: SearchAssembler.request(parsed, limit: .all, returns: []))
    }
}
