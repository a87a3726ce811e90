import Foundation

// org.freedesktop.Secret.Collection: searching and creating items, deleting the collection, its properties.
extension SecretServiceProvider {
    func collectionCall(_ member: String, collection: String, message: OpaquePointer, caller: SecretServiceCaller) throws(BusReplyError) {
        let arguments = BusReader(message: message)
        switch member {
        case "SearchItems":
            // The collection's method answers one list: the matching items, locked or not.
            let found = try searchPaths(try arguments.stringDictionary(), in: [collection], for: caller)
            try reply(to: message) { out throws(BusReplyError) in try out.objectPaths(found.unlocked + found.locked) }
        case "CreateItem":
            let properties = try arguments.itemProperties()
            let transported = try arguments.secret()
            let replace = try arguments.bool()
            guard let session = sessions.session(at: transported.session) else { throw .noSession("the session is not open") }
            let value = try session.decode(transported)
            guard let owner = caller.ownerGroup else { throw .accessDenied("this program may not store items") }
            guard !isLocked() else { throw .isLocked("the keychain is locked") }
            var attributes = properties.attributes ?? [:]
            if let type = properties.type { attributes[SecretItemRecord.schemaAttribute] = type.isEmpty ? nil : type }
            let label = properties.label ?? ""
            let contentType = transported.contentType.isEmpty ? "text/plain" : transported.contentType
            // With `replace`, an item of this program with exactly the same attributes becomes the new one (as
            // gnome-keyring does); another program's item is never replaced.
            let existing =
                replace
                ? try store(collection).search(attributes, where: caller.canSee(owner:)).first { $0.attributes == attributes } : nil
            let id: String
            if let existing {
                try store(collection).update(existing, label: label, secret: (value, contentType))
                id = existing.id
            } else {
                id = try store(collection).create(label: label, attributes: attributes, secret: value, contentType: contentType, owner: owner)
            }
            let item = Self.itemPath(collection, id)
            try reply(to: message) { out throws(BusReplyError) in
                try out.objectPath(item)
                try out.objectPath("/")
            }
            let collectionPath = ObjectPath.collection(collection).path
            emit(collectionPath, "org.freedesktop.Secret.Collection", existing == nil ? "ItemCreated" : "ItemChanged") {
                out throws(BusReplyError) in try out.objectPath(item)
            }
        case "Delete":
            guard !isLocked() else { throw .isLocked("the keychain is locked") }
            try deleteCollection(collection, visibleTo: caller)
            try reply(to: message) { out throws(BusReplyError) in try out.objectPath("/") }
        default:
            throw .notSupported("unknown method")
        }
    }

    func collectionProperty(_ name: String, collection: String, into out: BusWriter, caller: SecretServiceCaller) throws(BusReplyError) {
        guard let record = self.collection(collection) else { throw .noSuchObject("no such collection") }
        switch name {
        case "Items":
            let items = isLocked() ? [] : try store(collection).items().filter { caller.canSee(owner: $0.owner) }
            try out.objectPaths(items.map { Self.itemPath(collection, $0.id) })
        case "Label":
            try out.string(record.label)
        case "Locked":
            try out.bool(isLocked())
        case "Created":
            try out.uint64(record.created)
        case "Modified":
            try out.uint64(record.modified)
        default:
            throw .notSupported("unknown property")
        }
    }

    func setCollectionProperty(_ name: String, collection: String, from value: BusReader) throws(BusReplyError) {
        guard name == "Label" else { throw .notSupported("the property cannot be set") }
        let label = try value.string()
        do {
            try catalogue.relabel(collection, to: label)
        } catch {
            throw SecretItemStore.replyError(error)
        }
        known = nil
        emit(ObjectPath.service.path, "org.freedesktop.Secret.Service", "CollectionChanged") { out throws(BusReplyError) in
            try out.objectPath(ObjectPath.collection(collection).path)
        }
    }
}
