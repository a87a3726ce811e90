import Foundation
import KeychainClient
import KeychainModel
import Query

/// A Secret Service collection's items, kept as Coffer generic-password items through a ``KeychainClient``:
/// the secret in `kSecValueData`, the label in `kSecAttrLabel`, the attributes and content type in
/// `kSecAttrGeneric` (``ItemMetadata``), the collection in `kSecAttrService`
/// (`org.freedesktop.secrets/NAME`), the item's stable id in `kSecAttrAccount`.
///
/// Searching reads the collection's items and filters their decrypted attributes: its cost grows with the
/// collection. Flat lookups, through a blind index per attribute, are still to do.
struct SecretItemStore: Sendable {
    /// The keychain.
    let client: any KeychainClient
    /// The collection's name (`login`).
    let collection: String

    /// The `kSecAttrService` of the collection's items.
    var service: String { "org.freedesktop.secrets/\(collection)" }

    /// Every item of the collection, without secrets; items in another format are left out.
    func items() throws(BusReplyError) -> [SecretItemRecord] {
        var query = baseQuery
        query[QueryKey.matchLimit] = .string(QueryConstant.matchLimitAll)
        query[QueryKey.returnAttributes] = .bool(true)
        return try found(query).compactMap(Self.record)
    }

    /// The item `id`, without its secret; nil when there is none.
    func item(id: String) throws(BusReplyError) -> SecretItemRecord? {
        var query = itemQuery(id)
        query[QueryKey.returnAttributes] = .bool(true)
        return try found(query).first.flatMap(Self.record)
    }

    /// The secret of the item `id` and its content type; nil when there is no such item.
    func secret(id: String) throws(BusReplyError) -> (value: Data, contentType: String)? {
        var query = itemQuery(id)
        query[QueryKey.returnAttributes] = .bool(true)
        query[QueryKey.returnData] = .bool(true)
        guard let attributes = try found(query).first, let record = Self.record(attributes) else { return nil }
        guard case .data(let value)? = attributes[QueryKey.valueData] else { return (Data(), record.contentType) }
        return (value, record.contentType)
    }

    /// Adds an item and returns its id.
    func create(label: String, attributes: [String: String], secret: Data, contentType: String) throws(BusReplyError) -> String {
        let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        var query = itemQuery(id)
        query[QueryKey.label] = .string(label)
        query[QueryKey.generic] = .data(ItemMetadata(attributes: attributes, contentType: contentType).encoded())
        query[QueryKey.valueData] = .data(secret)
        do {
            _ = try client.blocking.add(query)
        } catch {
            throw Self.replyError(error)
        }
        return id
    }

    /// Changes what is given of the item `id`; the rest stays.
    func update(
        id: String, label: String? = nil, attributes: [String: String]? = nil, secret: (value: Data, contentType: String)? = nil
    ) throws(BusReplyError) {
        guard let current = try item(id: id) else { throw .noSuchObject("no such item") }
        var changes: QueryDictionary = [:]
        if let label { changes[QueryKey.label] = .string(label) }
        if attributes != nil || secret != nil {
            let metadata = ItemMetadata(
                attributes: attributes ?? current.attributes, contentType: secret?.contentType ?? current.contentType)
            changes[QueryKey.generic] = .data(metadata.encoded())
        }
        if let secret { changes[QueryKey.valueData] = .data(secret.value) }
        guard changes.count > 0 else { return }
        do {
            try client.blocking.update(itemQuery(id), attributesToUpdate: changes)
        } catch {
            throw Self.replyError(error)
        }
    }

    /// Deletes the item `id`; false when there was none.
    @discardableResult
    func delete(id: String) throws(BusReplyError) -> Bool {
        do {
            try client.blocking.delete(itemQuery(id))
            return true
        } catch where error.status == .itemNotFound {
            return false
        } catch {
            throw Self.replyError(error)
        }
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
        let result: KeychainValue?
        do {
            result = try client.blocking.copyMatching(query)
        } catch where error.status == .itemNotFound {
            return []
        } catch {
            throw Self.replyError(error)
        }
        switch result {
        case .array(let values)?:
            return values.compactMap { if case .dictionary(let attributes) = $0 { attributes } else { nil } }
        case .dictionary(let attributes)?:
            return [attributes]
        default:
            return []
        }
    }

    private static func record(_ attributes: [String: KeychainValue]) -> SecretItemRecord? {
        guard case .string(let id)? = attributes[QueryKey.account], case .data(let generic)? = attributes[QueryKey.generic],
            let metadata = ItemMetadata.decoded(from: generic)
        else { return nil }
        let label: String = if case .string(let label)? = attributes[QueryKey.label] { label } else { "" }
        return SecretItemRecord(
            id: id, label: label, attributes: metadata.attributes, contentType: metadata.contentType,
            created: seconds(attributes[QueryKey.creationDate]), modified: seconds(attributes[QueryKey.modificationDate]))
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
