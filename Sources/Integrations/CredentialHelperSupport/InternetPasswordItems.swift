import Foundation
import KeychainClient
import KeychainModel
import Query

/// A found internet-password item: its attributes and, when asked for, its secret.
public struct FoundInternetPassword: Sendable {
    /// The item's attributes as the helper names them.
    public var attributes: InternetPasswordQuery
    /// The primary key of the item (§1.4: server, protocol, port, path, account, authentication type,
    /// security domain, access group), to delete exactly this item.
    public var identity: QueryDictionary
    /// `kSecValueData`, when the search returned it.
    public var secret: Data?
}

/// The few keychain calls a credential helper makes on internet-password items, over any client.
public struct InternetPasswordItems: Sendable {
    /// The keychain.
    public let client: any KeychainClient

    /// Calls on `client`.
    public init(client: any KeychainClient) { self.client = client }

    /// Every item matching `query`, with its secret when `withSecrets`; none found is an empty list.
    public func find(_ query: InternetPasswordQuery, withSecrets: Bool) throws(KeychainFailure) -> [FoundInternetPassword] {
        var dictionary = query.dictionary
        dictionary[QueryKey.matchLimit] = .string(QueryConstant.matchLimitAll)
        dictionary[QueryKey.returnAttributes] = .bool(true)
        if withSecrets { dictionary[QueryKey.returnData] = .bool(true) }
        return try client.blocking.allMatches(dictionary).compactMap { item in
            guard case .dictionary(let attributes) = item else { return nil }
            var identity: QueryDictionary = [.string(QueryKey.itemClass): .string(QueryConstant.classInternetPassword)]
            for key in Self.identityKeys { identity[key] = attributes[key] }
            let secret: Data? = if case .data(let data)? = attributes[QueryKey.valueData] { data } else { nil }
            return FoundInternetPassword(attributes: InternetPasswordQuery(attributes: attributes), identity: identity, secret: secret)
        }
    }

    /// Adds the item with `secret`, or, when one with the same primary key exists, makes that item equal to
    /// it (``UpsertPlan``, as `coffer add-internet-password -U` does).
    public func upsert(_ attributes: InternetPasswordQuery, secret: Data) throws(KeychainFailure) {
        var dictionary = attributes.dictionary
        dictionary[QueryKey.valueData] = .data(secret)
        do {
            _ = try client.blocking.add(dictionary)
        } catch  where error.status == .duplicateItem {
            let plan = UpsertPlan(adding: dictionary, itemClass: .internetPassword)
            try client.blocking.update(plan.query, attributesToUpdate: plan.changes)
        }
    }

    /// Deletes every item matching `query`; false when none did.
    @discardableResult
    public func delete(_ query: QueryDictionary) throws(KeychainFailure) -> Bool {
        do {
            try client.blocking.delete(query)
            return true
        } catch  where error.status == .itemNotFound {
            return false
        }
    }

    private static let identityKeys = [
        QueryKey.server, QueryKey.protocol, QueryKey.port, QueryKey.path, QueryKey.account,
        QueryKey.authenticationType, QueryKey.securityDomain, QueryKey.accessGroup,
    ]
}
