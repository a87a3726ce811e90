import KeychainModel

/// Builds a ``SearchRequest`` from a parsed query.
enum SearchAssembler {
    static func request(_ parsed: ParsedQuery, limit: MatchLimit, returns: ReturnOptions) -> SearchRequest {
        var filters = AttributeSet()
        var accessGroup: String?
        for (code, value) in parsed.attributes {
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: parsed.itemClass) else { continue }
            switch descriptor.kind {
            case .accessControl, .sync: continue  // accc is no filter (§6.3); sync is `synchronizable`
            default: break
            }
            if descriptor.callerAccess == .callerView { continue }  // musr: always the caller's own view
            if code == QueryKey.accessGroup {
                accessGroup = value.stringValue
                continue
            }
            filters[code] = value
        }
        return SearchRequest(
            itemClass: parsed.itemClass, filters: filters, accessGroup: accessGroup,
            synchronizable: synchronizableFilter(parsed), persistentRef: parsed.persistentRef,
            hostOrSubdomainOf: parsed.hostOrSubdomainOf, limit: limit, returns: returns,
            authentication: parsed.effectiveAuthentication, useTombstones: parsed.useTombstones)
    }

    /// §2.5: nothing → only non-synchronizable, except that a query by persistent reference gets no implicit
    /// `sync = 0`; true/1/"1" → synchronizable; false/0/"0" → non-synchronizable; `syna` → both.
    static func synchronizableFilter(_ parsed: ParsedQuery) -> SynchronizableFilter {
        if parsed.synchronizableAny { return .any }
        switch parsed.attributes[QueryKey.synchronizable] {
        case .number(let flag)?: return flag == 0 ? .nonSynchronizable : .synchronizable
        default: return parsed.persistentRef == nil ? .nonSynchronizable : .any
        }
    }
}
