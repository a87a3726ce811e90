// The collections: which exist, what an alias or a path names, their items' stores and paths, searches across
// them, and creating and deleting them.
extension SecretServiceProvider {
    /// Every collection, `login` and `session` first; those two alone while the others cannot be read.
    func collections() -> [CollectionCatalogue.Collection] {
        loadCatalogue()?.collections ?? CollectionCatalogue.builtIn
    }

    /// The collection `alias` names; `default` and `login` name `login`, and `session` names `session`, while the
    /// aliases cannot be read.
    func collectionName(forAlias alias: String) -> String? {
        guard let aliases = loadCatalogue()?.aliases else {
            return alias == "default" ? Self.loginCollection : CollectionCatalogue.isBuiltIn(alias) ? alias : nil
        }
        return aliases[alias]
    }

    /// The collection a collection or alias path names, when it exists.
    func collectionName(_ path: ObjectPath) -> String? {
        switch path {
        case .collection(let name): collections().contains { $0.name == name } ? name : nil
        case .alias(let alias): collectionName(forAlias: alias)
        default: nil
        }
    }

    /// The collection named `name`.
    func collection(_ name: String) -> CollectionCatalogue.Collection? {
        collections().first { $0.name == name }
    }

    /// The items of the collection `name`.
    func store(_ name: String) -> SecretItemStore {
        SecretItemStore(client: client, collection: name)
    }

    /// The path of the item `id` of `collection`.
    static func itemPath(_ collection: String, _ id: String) -> String { ObjectPath.item(collection: collection, id: id).path }

    /// The item `id` of `collection` when `caller` may see it; an item it may not see does not exist for it.
    func visibleItem(_ collection: String, _ id: String, for caller: SecretServiceCaller) throws(BusReplyError) -> SecretItemRecord {
        guard let item = try store(collection).item(id: id), caller.canSee(owner: item.owner) else {
            throw .unknownObject(path: Self.itemPath(collection, id))
        }
        return item
    }

    /// The paths of `caller`'s items of `collections` (every collection when nil) that match `query`: `unlocked`
    /// read from the items, or, with the keychain locked, `locked` from the postings alone (an empty query then
    /// finds nothing: no posting answers it).
    func searchPaths(
        _ query: [String: String], in names: [String]? = nil, for caller: SecretServiceCaller
    ) throws(BusReplyError) -> (unlocked: [String], locked: [String]) {
        let locked = isLocked()
        var found: [String] = []
        for name in names ?? collections().map(\.name) {
            let items = store(name)
            if locked {
                found += try items.candidates(query).filter { caller.canSee(owner: $0.value) }.keys.sorted().map { Self.itemPath(name, $0) }
            } else {
                found += try items.search(query, where: caller.canSee(owner:)).map { Self.itemPath(name, $0.id) }
            }
        }
        return locked ? ([], found) : (found, [])
    }

    /// Adds a collection labelled `label` (named after it) and, when `alias` is not empty, points the alias at
    /// it; a collection the alias names already is returned instead, as the spec says.
    func createCollection(label: String, alias: String) throws(BusReplyError) -> String {
        if !alias.isEmpty, let existing = collectionName(forAlias: alias) { return existing }
        guard !alias.isEmpty ? ObjectPath.isValidElement(alias) : true else { throw .invalidArguments("an alias is letters, digits and _") }
        do {
            let created = try catalogue.create(
                label: label, sessionOnly: alias == "session", taken: Set(collections().map(\.name)))
            if !alias.isEmpty { try catalogue.setAlias(alias, to: created.name) }
            known = nil
            emit(ObjectPath.service.path, "org.freedesktop.Secret.Service", "CollectionCreated") { out throws(BusReplyError) in
                try out.objectPath(ObjectPath.collection(created.name).path)
            }
            return created.name
        } catch {
            throw SecretItemStore.replyError(error)
        }
    }

    /// Deletes the items of collection `name` that `caller` may see (every item when nil), then the collection
    /// itself once no item is left (`login` and `session` stay).
    func deleteCollection(_ name: String, visibleTo caller: SecretServiceCaller?) throws(BusReplyError) {
        let items = store(name)
        var remaining = 0
        for item in try items.items() {
            if let caller, !caller.canSee(owner: item.owner) {
                remaining += 1
                continue
            }
            try items.delete(item)
            emit(ObjectPath.collection(name).path, "org.freedesktop.Secret.Collection", "ItemDeleted") { out throws(BusReplyError) in
                try out.objectPath(Self.itemPath(name, item.id))
            }
        }
        guard remaining == 0, !CollectionCatalogue.isBuiltIn(name) else { return }
        do {
            try catalogue.remove(name)
        } catch {
            throw SecretItemStore.replyError(error)
        }
        known = nil
        emit(ObjectPath.service.path, "org.freedesktop.Secret.Service", "CollectionDeleted") { out throws(BusReplyError) in
            try out.objectPath(ObjectPath.collection(name).path)
        }
    }

    /// Points `alias` at `collection` (nil: at nothing).
    func setAlias(_ alias: String, to collection: String?) throws(BusReplyError) {
        guard ObjectPath.isValidElement(alias) else { throw .invalidArguments("an alias is letters, digits and _") }
        do {
            try catalogue.setAlias(alias, to: collection)
        } catch {
            throw SecretItemStore.replyError(error)
        }
        known = nil
    }

    /// The catalogue, read once and kept until a change; nil while it cannot be read.
    private func loadCatalogue() -> (collections: [CollectionCatalogue.Collection], aliases: [String: String])? {
        if let known { return known }
        guard let collections = try? catalogue.collections(), let aliases = try? catalogue.aliases() else { return nil }
        known = (collections, aliases)
        return known
    }
}
