import Foundation
import KeychainClient
import KeychainModel
import Query

/// A Secret Service collection's items, kept as Coffer generic-password items through a ``KeychainClient``:
/// the secret in `kSecValueData`, the label in `kSecAttrLabel`, the attributes, content type and owner in
/// `kSecAttrGeneric` (``ItemMetadata``), the collection in `kSecAttrService` (`org.freedesktop.secrets/NAME`),
/// the item's stable id in `kSecAttrAccount`; beside each, its attributes' postings (``AttributeIndex``), so a
/// search costs what it finds, not the size of the collection.
struct SecretItemStore: Sendable {
    /// The keychain.
    let client: any KeychainClient
    /// The collection's name (`login`).
    let collection: String

    /// The `kSecAttrService` of the collection's items.
    var service: String { "org.freedesktop.secrets/\(collection)" }

    private var index: AttributeIndex { AttributeIndex(client: client, collection: collection) }

    /// Every item of the collection, without secrets; items in another format are left out. Its cost grows
    /// with the collection: searches with attributes use ``search(_:where:)``.
    func items() throws(BusReplyError) -> [SecretItemRecord] {
        try items(limit: nil) ?? []
    }

    /// Every item of the collection when it holds fewer than `limit` (all of them without a limit); nil when it
    /// holds `limit` or more, so that finding out costs at most `limit` items' reads.
    private func items(limit: Int?) throws(BusReplyError) -> [SecretItemRecord]? {
        var query = baseQuery
        query[QueryKey.matchLimit] = limit.map { .number(Int64($0)) } ?? .string(QueryConstant.matchLimitAll)
        query[QueryKey.returnAttributes] = .bool(true)
        let found = try found(query)
        if let limit, found.count >= limit { return nil }
        return found.compactMap(Self.record).sorted { $0.isListed(before: $1) }
    }

    /// How many times cheaper reading an item is within one read of the whole collection than on its own (one
    /// keychain call each): a search that matches many items reads the whole collection instead when the
    /// collection is less than this many times larger than what it matches.
    static let wholeReadAdvantage = 8

    /// The items whose attributes include every one of `query`'s (every item for an empty query) and whose
    /// owner `isVisible` accepts, read with the keychain unlocked, oldest first. Candidates another
    /// program owns are left out before their items are read. Many candidates in a collection not much larger
    /// are read in one call (``wholeReadAdvantage``), few ones item by item.
    func search(_ query: [String: String], where isVisible: (String?) -> Bool = { _ in true }) throws(BusReplyError) -> [SecretItemRecord] {
        guard !query.isEmpty else { return try items().filter { isVisible($0.owner) } }
        let candidates: [String: String?]
        do {
            candidates = try index.candidates(matching: query, exact: false).filter { isVisible($0.value) }
        } catch {
            throw Self.replyError(error)
        }
        if candidates.count >= 64, let whole = try items(limit: candidates.count * Self.wholeReadAdvantage) {
            return whole.filter { candidates[$0.id] != nil && $0.matches(query) && isVisible($0.owner) }
        }
        var records: [SecretItemRecord] = []
        for id in candidates.keys.sorted() {
            guard let record = try item(id: id), record.matches(query), isVisible(record.owner) else { continue }
            records.append(record)
        }
        return records.sorted { $0.isListed(before: $1) }
    }

    /// The ids of the items the postings say match `query`, with their owners: what a locked keychain can
    /// answer (the items themselves cannot be read). Empty for an empty query, which no posting answers.
    func candidates(_ query: [String: String]) throws(BusReplyError) -> [String: String?] {
        guard !query.isEmpty else { return [:] }
        do {
            return try index.candidates(matching: query, exact: true)
        } catch {
            throw Self.replyError(error)
        }
    }

    /// The item `id`, without its secret; nil when there is none.
    func item(id: String) throws(BusReplyError) -> SecretItemRecord? {
        var query = itemQuery(id)
        query[QueryKey.returnAttributes] = .bool(true)
        return try found(query).first.flatMap(Self.record)
    }

    /// The secret of the item `id` and its record; nil when there is no such item.
    func secret(id: String) throws(BusReplyError) -> (value: Data, record: SecretItemRecord)? {
        var query = itemQuery(id)
        query[QueryKey.returnAttributes] = .bool(true)
        query[QueryKey.returnData] = .bool(true)
        guard let attributes = try found(query).first, let record = Self.record(attributes) else { return nil }
        guard case .data(let value)? = attributes[QueryKey.valueData] else { return (Data(), record) }
        return (value, record)
    }

    /// Adds an item owned by the access group `owner` (nil: visible to every program) and returns its id.
    /// `created` is the creation date of an item copied from another provider, kept in place of Coffer's.
    func create(
        label: String, attributes: [String: String], secret: Data, contentType: String, owner: String?, created: UInt64? = nil
    ) throws(BusReplyError) -> String {
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var query = itemQuery(id)
        query[QueryKey.label] = .string(label)
        let metadata = ItemMetadata(attributes: attributes, contentType: contentType, owner: owner, created: created)
        query[QueryKey.generic] = .data(metadata.encoded())
        query[QueryKey.valueData] = .data(secret)
        do {
            try index.add(id: id, attributes: attributes, owner: owner, then: query)
        } catch {
            throw Self.replyError(error)
        }
        return id
    }

    /// Changes what is given of the item `current`; the rest stays. New postings are written before the item
    /// changes and old ones removed after.
    func update(
        _ current: SecretItemRecord, label: String? = nil, attributes: [String: String]? = nil,
        secret: (value: Data, contentType: String)? = nil
    ) throws(BusReplyError) {
        var changes: QueryDictionary = [:]
        if let label { changes[QueryKey.label] = .string(label) }
        let newAttributes = attributes ?? current.attributes
        if attributes != nil || secret != nil || !current.isIndexed {
            let metadata = ItemMetadata(
                attributes: newAttributes, contentType: secret?.contentType ?? current.contentType, owner: current.owner,
                created: current.keepsCreationDate ? current.created : nil)
            changes[QueryKey.generic] = .data(metadata.encoded())
        }
        if let secret { changes[QueryKey.valueData] = .data(secret.value) }
        guard changes.count > 0 else { return }
        let added = current.isIndexed ? newAttributes.filter { current.attributes[$0.key] != $0.value } : newAttributes
        do {
            try index.add(id: current.id, attributes: added, owner: current.owner)
            try client.blocking.update(itemQuery(current.id), attributesToUpdate: changes)
            try index.remove(id: current.id, attributes: current.attributes.filter { newAttributes[$0.key] != $0.value })
        } catch {
            throw Self.replyError(error)
        }
    }

    /// Deletes the item `current` and then its postings; false when it was already gone.
    @discardableResult
    func delete(_ current: SecretItemRecord) throws(BusReplyError) -> Bool {
        do {
            try client.blocking.delete(itemQuery(current.id))
        } catch  where error.status == .itemNotFound {
            return false
        } catch {
            throw Self.replyError(error)
        }
        do {
            try index.remove(id: current.id, attributes: current.attributes)
        } catch {
            // The item is gone; a posting left behind is skipped by lookups.
        }
        return true
    }

    /// Writes the postings of items stored before they existed (``ItemMetadata`` version 1); returns how many.
    @discardableResult
    func indexUnindexedItems() throws(BusReplyError) -> Int {
        let unindexed = try items().filter { !$0.isIndexed }
        for record in unindexed { try update(record) }
        return unindexed.count
    }

    // MARK: Queries

    private var baseQuery: QueryDictionary {
        [
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword),
            .string(QueryKey.service): .string(service),
        ]
    }

    private func itemQuery(_ id: String) -> QueryDictionary {
        var query = baseQuery
        query[QueryKey.account] = .string(id)
        return query
    }

    /// The attribute dictionaries `query` finds; none found is an empty list.
    private func found(_ query: QueryDictionary) throws(BusReplyError) -> [[String: KeychainValue]] {
        do {
            return Self.dictionaries(try client.blocking.copyMatching(query))
        } catch  where error.status == .itemNotFound {
            return []
        } catch {
            throw Self.replyError(error)
        }
    }

    /// The attribute dictionaries of a search's result.
    static func dictionaries(_ result: KeychainValue?) -> [[String: KeychainValue]] {
        switch result {
        case .array(let values)?:
            values.compactMap { if case .dictionary(let attributes) = $0 { attributes } else { nil } }
        case .dictionary(let attributes)?:
            [attributes]
        default:
            []
        }
    }

    private static func record(_ attributes: [String: KeychainValue]) -> SecretItemRecord? {
        guard case .string(let id)? = attributes[QueryKey.account], case .data(let generic)? = attributes[QueryKey.generic],
            let metadata = ItemMetadata.decoded(from: generic)
        else { return nil }
        let label: String = if case .string(let label)? = attributes[QueryKey.label] { label } else { "" }
        return SecretItemRecord(
            id: id, label: label, attributes: metadata.attributes, contentType: metadata.contentType,
            created: metadata.created ?? seconds(attributes[QueryKey.creationDate]),
            modified: seconds(attributes[QueryKey.modificationDate]), owner: metadata.owner, isIndexed: metadata.version >= 2,
            keepsCreationDate: metadata.created != nil, storedAt: storedAt(attributes[QueryKey.creationDate]))
    }

    private static func storedAt(_ value: KeychainValue?) -> Double {
        guard case .date(let date)? = value else { return 0 }
        return date.timeIntervalSince1970
    }

    private static func seconds(_ value: KeychainValue?) -> UInt64 {
        guard case .date(let date)? = value, date.timeIntervalSince1970 > 0 else { return 0 }
        return UInt64(date.timeIntervalSince1970)
    }

    /// The D-Bus error for a keychain failure: its status only, never the query.
    static func replyError(_ failure: KeychainFailure) -> BusReplyError {
        failure.status == .interactionNotAllowed ? .isLocked("the keychain is locked") : .failed("the keychain refused: \(failure.status)")
    }
}
