import Foundation

// org.freedesktop.Secret.Collection: searching and creating items.
extension SecretServiceProvider {
    func collectionCall(_ member: String, collection: String, message: OpaquePointer, caller: SecretServiceCaller) throws(BusReplyError) {
        let arguments = BusReader(message: message)
        switch member {
        case "SearchItems":
            // The collection's method answers one list: the matching items, locked or not.
            let found = try searchPaths(try arguments.stringDictionary(), for: caller)
            try reply(to: message) { out throws(BusReplyError) in try out.objectPaths(found.unlocked + found.locked) }
        case "CreateItem":
            let properties = try arguments.itemProperties()
            let transported = try arguments.secret()
            let replace = try arguments.bool()
            guard let session = sessions.session(at: transported.session) else { throw .noSession("the session is not open") }
            let value = try session.decode(transported)
            guard let owner = caller.ownerGroup else { throw .accessDenied("this program may not store items") }
            guard !isLocked() else { throw .isLocked("the keychain is locked") }
            let attributes = properties.attributes ?? [:]
            let label = properties.label ?? ""
            let contentType = transported.contentType.isEmpty ? "text/plain" : transported.contentType
            // With `replace`, an item of this program with exactly the same attributes becomes the new one (as
            // gnome-keyring does); another program's item is never replaced.
            let existing = replace
                ? try store.search(attributes, where: caller.canSee(owner:)).first { $0.attributes == attributes } : nil
            let id: String
            if let existing {
                try store.update(existing, label: label, secret: (value, contentType))
                id = existing.id
            } else {
                id = try store.create(label: label, attributes: attributes, secret: value, contentType: contentType, owner: owner)
            }
            let item = Self.itemPath(id)
            try reply(to: message) { out throws(BusReplyError) in
                try out.objectPath(item)
                try out.objectPath("/")
            }
            let collectionPath = ObjectPath.collection(collection).path
            emit(collectionPath, "org.freedesktop.Secret.Collection", existing == nil ? "ItemCreated" : "ItemChanged") {
                out throws(BusReplyError) in try out.objectPath(item)
            }
        case "Delete":
            throw .notSupported("the login collection cannot be deleted")
        default:
            throw .notSupported("unknown method")
        }
    }

    func collectionProperty(_ name: String, into out: BusWriter, caller: SecretServiceCaller) throws(BusReplyError) {
        switch name {
        case "Items":
            try out.objectPaths(isLocked() ? [] : try store.items().filter { caller.canSee(owner: $0.owner) }.map { Self.itemPath($0.id) })
        case "Label":
            try out.string("Login")
        case "Locked":
            try out.bool(isLocked())
        case "Created", "Modified":
            try out.uint64(0)
        default:
            throw .notSupported("unknown property")
        }
    }
}
