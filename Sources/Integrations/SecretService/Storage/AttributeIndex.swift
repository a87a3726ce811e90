import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// Flat lookups of Secret Service attributes: one small Coffer item per attribute of an item (a posting),
/// found by the keychain's blind index.
///
/// A posting is a generic password whose `kSecAttrService` names the collection, the attribute and its value,
/// and whose `kSecAttrAccount` is the item's id; its `kSecAttrDescription` is the item's owner group. The store
/// keeps only the blind index (HMAC) and the sealed attributes, so no name or value is in plaintext at rest, and
/// a lookup reads only the postings of the values it names: its cost is the number of matches, not of items.
/// Postings are `AfterFirstUnlock`, so a locked keychain still answers which items match (as locked items,
/// whose secrets and attributes it cannot read), and marked invisible (`kSecAttrIsInvisible`, Apple's hint
/// that a keychain browser should not show them).
///
/// A new item's postings are written in the same transaction as the item; changed postings are written before
/// the item changes and removed after it, so a crash leaves at worst a posting whose item is gone or no longer
/// has that value, which lookups skip: searches check the item's own attributes before answering.
struct AttributeIndex: Sendable {
    let client: any KeychainClient
    let collection: String

    /// The owner recorded on postings of items without one.
    static let noOwner = ""

    /// Adds the postings of an item's `attributes`, and then `item` when given, in one transaction (so that an item
    /// and its postings cost one durable write); a posting that exists already is kept.
    func add(id: String, attributes: [String: String], owner: String?, then item: QueryDictionary? = nil) throws(KeychainFailure) {
        let queries = postings(id: id, attributes: attributes, owner: owner) + (item.map { [$0] } ?? [])
        var start = 0
        while start < queries.count {
            let batch = Array(queries[start..<min(start + Request.maximumAddEachCount, queries.count)])
            let outcomes = try client.blocking.addEach(batch)
            for (offset, outcome) in outcomes.enumerated() where !outcome.isSuccess {
                let isItem = item != nil && start + offset == queries.count - 1
                if outcome != .duplicateItem || isItem { throw KeychainFailure(outcome) }
            }
            start += batch.count
        }
    }

    /// The postings of an item's `attributes`.
    private func postings(id: String, attributes: [String: String], owner: String?) -> [QueryDictionary] {
        attributes.sorted { $0.key < $1.key }.map { name, value in
            var query = posting(name, value, id: id)
            query[QueryKey.description] = .string(owner ?? Self.noOwner)
            query[QueryKey.isInvisible] = .bool(true)
            query[QueryKey.accessible] = .string(ProtectionClass.afterFirstUnlock.rawValue)
            return query
        }
    }

    /// Removes the postings of an item's `attributes`; missing ones are no error.
    func remove(id: String, attributes: [String: String]) throws(KeychainFailure) {
        for (name, value) in attributes {
            do {
                try client.blocking.delete(posting(name, value, id: id))
            } catch  where error.status == .itemNotFound {
                continue
            }
        }
    }

    /// How many postings of one attribute a lookup reads before it tries the next attribute: an attribute with
    /// at most this many items (an account, a URL) names the candidates alone; one shared by many (a schema, a
    /// service) is left to the check of each candidate.
    static let selectiveLimit = 64

    /// The items whose postings match `query` (not empty), with the owner each posting records.
    ///
    /// The first attribute with at most ``selectiveLimit`` postings names the candidates: a lookup reads a
    /// bounded number of postings whatever the size of the collection. When `exact`, each candidate's other
    /// attributes are checked against their postings (what a locked keychain can check); otherwise the caller
    /// checks the candidates against the items themselves. When no attribute is selective, every attribute's
    /// postings are read and intersected.
    func candidates(matching query: [String: String], exact: Bool) throws(KeychainFailure) -> [String: String?] {
        let pairs = query.sorted { $0.key < $1.key }
        for (name, value) in pairs {
            let found = try ids(name, value, limit: Self.selectiveLimit + 1)
            if found.isEmpty { return [:] }
            guard found.count <= Self.selectiveLimit else { continue }
            guard exact else { return found }
            var verified: [String: String?] = [:]
            for (id, owner) in found where try hasPostings(pairs.filter { $0.key != name }, id: id) {
                verified[id] = owner
            }
            return verified
        }
        var found: [String: String?]?
        for (name, value) in pairs {
            let postings = try ids(name, value, limit: nil)
            found = found.map { current in current.filter { postings[$0.key] != nil } } ?? postings
            if found?.isEmpty == true { return [:] }
        }
        return found ?? [:]
    }

    /// Whether the item `id` has a posting for each of `pairs`.
    private func hasPostings(_ pairs: [(key: String, value: String)], id: String) throws(KeychainFailure) -> Bool {
        for (name, value) in pairs {
            do {
                _ = try client.blocking.copyMatching(posting(name, value, id: id))
            } catch  where error.status == .itemNotFound {
                return false
            }
        }
        return true
    }

    /// The ids of the items with attribute `name` equal to `value`, and their owners: at most `limit` of them
    /// (every one when nil).
    private func ids(_ name: String, _ value: String, limit: Int?) throws(KeychainFailure) -> [String: String?] {
        var query = postingQuery(name, value)
        query[QueryKey.matchLimit] = limit.map { .number(Int64($0)) } ?? .string(QueryConstant.matchLimitAll)
        query[QueryKey.returnAttributes] = .bool(true)
        let result: KeychainValue?
        do {
            result = try client.blocking.copyMatching(query)
        } catch  where error.status == .itemNotFound {
            return [:]
        }
        var ids: [String: String?] = [:]
        for attributes in SecretItemStore.dictionaries(result) {
            guard case .string(let id)? = attributes[QueryKey.account] else { continue }
            let owner: String? = if case .string(let owner)? = attributes[QueryKey.description], owner != Self.noOwner { owner } else { nil }
            ids[id] = owner
        }
        return ids
    }

    /// The `kSecAttrService` of the postings of `name` = `value`: the collection, the name and the value, each
    /// length-prefixed so no two pairs share it.
    func service(_ name: String, _ value: String) -> String {
        "org.freedesktop.secrets.attribute/\(collection.utf8.count):\(collection)\(name.utf8.count):\(name)\(value)"
    }

    private func postingQuery(_ name: String, _ value: String) -> QueryDictionary {
        [
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword),
            .string(QueryKey.service): .string(service(name, value)),
        ]
    }

    private func posting(_ name: String, _ value: String, id: String) -> QueryDictionary {
        var query = postingQuery(name, value)
        query[QueryKey.account] = .string(id)
        return query
    }
}
