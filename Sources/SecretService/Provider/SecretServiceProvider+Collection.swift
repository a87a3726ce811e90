import Foundation

// org.freedesktop.Secret.Collection: searching and creating items.
extension SecretServiceProvider {
    func collectionCall(_ member: String, collection: String, message: OpaquePointer) throws(BusReplyError) {
        let arguments = BusReader(message: message)
        switch member {
        case "SearchItems":
            let query = try arguments.stringDictionary()
            let found = isLocked() ? [] : try store.items().filter { $0.matches(query) }.map { Self.itemPath($0.id) }
            try reply(to: message) { out throws(BusReplyError) in try out.objectPaths(found) }
        case "CreateItem":
            let properties = try arguments.itemProperties()
            let transported = try arguments.secret()
            let replace = try arguments.bool()
            guard let session = sessions.session(at: transported.session) else { throw .noSession("the session is not open") }
            let value = try session.decode(transported)
            guard !isLocked() else { throw .isLocked("the keychain is locked") }
            let attributes = properties.attributes ?? [:]
            let label = properties.label ?? ""
            let contentType = transported.contentType.isEmpty ? "text/plain" : transported.contentType
            // With `replace`, an item with exactly the same attributes becomes the new one (as gnome-keyring does).
            let existing = replace ? try store.items().first { $0.attributes == attributes } : nil
            let id: String
            if let existing {
                try store.update(id: existing.id, label: label, secret: (value, contentType))
                id = existing.id
            } else {
                id = try store.create(label: label, attributes: attributes, secret: value, contentType: contentType)
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

    func collectionProperty(_ name: String, into out: BusWriter) throws(BusReplyError) {
        switch name {
        case "Items":
            try out.objectPaths(isLocked() ? [] : try store.items().map { Self.itemPath($0.id) })
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
