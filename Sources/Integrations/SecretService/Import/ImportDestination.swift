import Foundation

/// Where imported items go: Coffer's login collection, owned by one access group (or by none: visible to every
/// program). An item already there with the same owner, the same attributes and the same secret is not copied
/// again, so an import can be run again.
struct ImportDestination {
    /// What became of one item.
    enum Outcome {
        /// Stored as a new Coffer item.
        case copied
        /// Already in Coffer: nothing was written.
        case alreadyPresent
    }

    let store: SecretItemStore
    /// The access group the copies belong to; nil: every program sees them.
    let owner: String?

    /// Stores `item` unless it is already there.
    func copy(_ item: SourceItem) throws(BusReplyError) -> Outcome {
        let found: [SecretItemRecord] = try store.search(item.attributes)
        for record in found where record.attributes == item.attributes && record.owner == owner {
            if let found = try store.secret(id: record.id), found.value == item.secret { return .alreadyPresent }
        }
        _ = try store.create(
            label: item.label, attributes: item.attributes, secret: item.secret, contentType: item.contentType, owner: owner,
            created: item.created)
        return .copied
    }
}
