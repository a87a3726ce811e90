import Foundation

/// The calls the import makes to the provider it reads: its collections and their items, unlocking through
/// the provider's own `Unlock` and `Prompt` (whatever dialog that provider shows), and each item's properties
/// and secret.
struct SourceProvider {
    let connection: SourceConnection
    /// How long the person has to answer an unlock prompt of the provider.
    let promptTimeout: Duration

    private static let service = "org.freedesktop.Secret.Service"
    private static let collection = "org.freedesktop.Secret.Collection"
    private static let item = "org.freedesktop.Secret.Item"

    /// The paths of the provider's collections.
    func collections() throws(SourceFailure) -> [String] {
        try connection.property(ObjectPath.root, Self.service, "Collections", "ao") { answer throws(BusReplyError) in try answer.objectPaths() }
    }

    /// The paths of the items of `collection`.
    func items(of collection: String) throws(SourceFailure) -> [String] {
        try connection.property(collection, Self.collection, "Items", "ao") { answer throws(BusReplyError) in try answer.objectPaths() }
    }

    /// Whether the collection or item at `path` (of `interface`) is locked.
    func isLocked(_ path: String, collection isCollection: Bool) throws(SourceFailure) -> Bool {
        try connection.property(path, isCollection ? Self.collection : Self.item, "Locked", "b") { answer throws(BusReplyError) in try answer.bool() }
    }

    /// Unlocks the collection or item at `path` through the provider's `Unlock`, running the prompt it hands
    /// back; answers whether it is unlocked afterwards.
    func unlock(_ path: String, collection isCollection: Bool) throws(SourceFailure) -> Bool {
        let (unlocked, prompt) = try connection.call(ObjectPath.root, Self.service, "Unlock") { out throws(BusReplyError) in
            try out.objectPaths([path])
        } reading: { answer throws(BusReplyError) in
            (try answer.objectPaths(), try answer.objectPath())
        }
        if unlocked.contains(path) { return true }
        guard prompt != "/" else { return try !isLocked(path, collection: isCollection) }
        let dismissed = try connection.awaitSignal(prompt, "org.freedesktop.Secret.Prompt", "Completed", timeout: promptTimeout) {
            () throws(SourceFailure) in
            try connection.call(prompt, "org.freedesktop.Secret.Prompt", "Prompt") { out throws(BusReplyError) in
                try out.string("")
            } reading: { _ throws(BusReplyError) in
            }
        } reading: { signal throws(BusReplyError) in
            try signal.bool()
        }
        if dismissed == nil {
            _ = try? connection.call(prompt, "org.freedesktop.Secret.Prompt", "Dismiss") { _ throws(BusReplyError) in
            } reading: { _ throws(BusReplyError) in
            }
        }
        guard dismissed == false else { return false }
        return try !isLocked(path, collection: isCollection)
    }

    /// Reads the item at `path` with its secret, through `session`; an item the provider says is locked is
    /// unlocked first.
    func read(_ path: String, session: SourceSession) throws(SourceFailure) -> SourceItem {
        let properties = try connection.call(path, "org.freedesktop.DBus.Properties", "GetAll") { out throws(BusReplyError) in
            try out.string(Self.item)
        } reading: { answer throws(BusReplyError) in
            try SourceItemProperties(reading: answer)
        }
        if properties.locked, try !unlock(path, collection: false) {
            throw SourceFailure("the item is locked and the provider did not unlock it")
        }
        let transported = try connection.call(path, Self.item, "GetSecret") { out throws(BusReplyError) in
            try out.objectPath(session.path)
        } reading: { answer throws(BusReplyError) in
            try answer.secret()
        }
        return SourceItem(
            path: path, label: properties.label, attributes: properties.attributes,
            contentType: transported.contentType.isEmpty ? "text/plain" : transported.contentType, created: properties.created,
            secret: try session.decode(transported))
    }
}
