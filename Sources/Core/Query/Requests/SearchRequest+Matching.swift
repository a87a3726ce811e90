import KeychainModel

extension SearchRequest {
    /// Whether an item with these stored attributes satisfies the request's attribute conditions (§10.1):
    /// every filter by exact equality of ``AttributeDescriptor/matchKey(of:)``, the access group, the
    /// synchronizable filter, `tomb = 0` unless a `tomb` filter is given, and the host-or-subdomain match.
    ///
    /// An attribute the item does not store compares as its stored default (`""`/0 for NOT NULL attributes,
    /// `''` for `vwht`/`tkid`/`ggrp`) and otherwise never matches, like SQL `NULL`. The persistent reference
    /// is not checked here: the engine selects rows by it.
    public func matches(_ attributes: AttributeSet) -> Bool {
        for (code, wanted) in filters {
            // Equal values have equal match keys; only values that differ need their keys compared.
            if let stored = attributes[code], stored == wanted { continue }
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: itemClass),
                let stored = attributes[code] ?? descriptor.absentValue,
                descriptor.matchKey(of: stored) == descriptor.matchKey(of: wanted)
            else { return false }
        }
        if let accessGroup, attributes[QueryKey.accessGroup] != .string(accessGroup) { return false }
        let isSynchronizable = (attributes[QueryKey.synchronizable]?.numberValue ?? 0) != 0
        if !synchronizable.admits(isSynchronizable: isSynchronizable) { return false }
        if !includesTombstoneFilter, (attributes[QueryKey.tombstone]?.numberValue ?? 0) != 0 { return false }
        if let host = hostOrSubdomainOf {
            guard case .string(let server)? = attributes[QueryKey.server],
                server == host || server.hasSuffix("." + host)
            else { return false }
        }
        return true
    }
}
