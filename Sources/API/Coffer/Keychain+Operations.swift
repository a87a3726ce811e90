import KeychainClient
import KeychainModel
import Query

/// The dictionary calls under the typed API, and reading their results.
extension Keychain {
    /// The results of `dictionary` (a search with `kSecMatchLimitAll`), or none (`errSecItemNotFound` is not an
    /// error here); `what` names the items in the error when the keychain answers anything but an array.
    func allMatches(_ dictionary: QueryDictionary, expecting what: String) async throws(KeychainError) -> [KeychainValue] {
        guard case .found(let result) = try await search(dictionary) else { return [] }
        guard case .array(let elements)? = result else {
            throw KeychainError(
                status: .internal, operation: .copyMatching, query: dictionary,
                reason: "The keychain returned \(result?.typeName ?? "nothing") where Coffer expected an array of \(what).")
        }
        return elements
    }

    /// Every item matching `query` up to `limit`, or none (`errSecItemNotFound` is not an error here).
    func items<Item: KeychainItem>(
        matching query: ItemQuery<Item>, withSecret: Bool, limit: KeychainValue
    ) async throws(KeychainError) -> [Item] {
        let dictionary = query.searchDictionary(withSecret: withSecret, limit: limit)
        guard case .found(let result) = try await search(dictionary) else { return [] }
        // A limit of 1 gives a single dictionary rather than an array (§2.2).
        guard case .array(let elements)? = result else {
            return [try item(reading: result, operation: .copyMatching, query: dictionary)]
        }
        var items: [Item] = []
        items.reserveCapacity(elements.count)
        for element in elements {
            items.append(try item(reading: element, operation: .copyMatching, query: dictionary))
        }
        return items
    }

    /// What a search came to.
    enum SearchAnswer {
        /// Nothing matched (`errSecItemNotFound`, which the typed searches answer with an empty list).
        case nothingMatched
        /// Something matched: the result, nil when the return keys asked for nothing.
        case found(KeychainValue?)
    }

    /// `SecItemCopyMatching` of `dictionary`; any failure but `errSecItemNotFound` is a ``KeychainError``.
    func search(_ dictionary: QueryDictionary) async throws(KeychainError) -> SearchAnswer {
        do {
            return .found(try await client.copyMatching(dictionary))
        } catch  where error.status == .itemNotFound {
            return .nothingMatched
        } catch {
            throw KeychainError(error, operation: .copyMatching, query: dictionary)
        }
    }

    /// Runs a dictionary call, turning its status into a ``KeychainError`` that carries the redacted query.
    @discardableResult
    func perform<Result>(
        _ operation: KeychainError.Operation, _ query: QueryDictionary, changes: QueryDictionary? = nil,
        _ body: () async throws(KeychainFailure) -> Result
    ) async throws(KeychainError) -> Result {
        do {
            return try await body()
        } catch {
            throw KeychainError(error, operation: operation, query: query, changes: changes)
        }
    }

    /// The item a result dictionary describes.
    func item<Item: KeychainItem>(
        reading result: KeychainValue?, operation: KeychainError.Operation, query: QueryDictionary
    ) throws(KeychainError) -> Item {
        guard case .dictionary(let values)? = result else {
            throw KeychainError(
                status: .internal, operation: operation, query: query,
                reason: "The keychain returned \(result?.typeName ?? "nothing") where Coffer expected a dictionary of attributes.")
        }
        return Item.schema.item(reading: AttributeReader(values: values))
    }
}
