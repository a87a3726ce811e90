import Foundation

// org.freedesktop.Secret.Item: one item's secret, attributes and label.
extension SecretServiceProvider {
    func itemCall(_ member: String, collection: String, id: String, message: OpaquePointer, caller: SecretServiceCaller) throws(BusReplyError) {
        let arguments = BusReader(message: message)
        switch member {
        case "GetSecret":
            guard let session = sessions.session(at: try arguments.objectPath()) else { throw .noSession("the session is not open") }
            guard !isLocked() else { throw .isLocked("the keychain is locked") }
            guard let found = try store(collection).secret(id: id), caller.canSee(owner: found.record.owner) else {
                throw .unknownObject(path: Self.itemPath(collection, id))
            }
            try reply(to: message) { out throws(BusReplyError) in
                try out.secret(session.encode(found.value, contentType: found.record.contentType))
            }
        case "SetSecret":
            let transported = try arguments.secret()
            guard let session = sessions.session(at: transported.session) else { throw .noSession("the session is not open") }
            let value = try session.decode(transported)
            let contentType = transported.contentType.isEmpty ? "text/plain" : transported.contentType
            try store(collection).update(try visibleItem(collection, id, for: caller), secret: (value, contentType))
            try reply(to: message) { _ throws(BusReplyError) in }
            itemChanged(collection, id)
        case "Delete":
            guard try store(collection).delete(try visibleItem(collection, id, for: caller)) else {
                throw .unknownObject(path: Self.itemPath(collection, id))
            }
            try reply(to: message) { out throws(BusReplyError) in try out.objectPath("/") }
            emit(ObjectPath.collection(collection).path, "org.freedesktop.Secret.Collection", "ItemDeleted") {
                out throws(BusReplyError) in try out.objectPath(Self.itemPath(collection, id))
            }
        default:
            throw .notSupported("unknown method")
        }
    }

    func itemProperty(_ name: String, collection: String, id: String, into out: BusWriter, caller: SecretServiceCaller) throws(BusReplyError) {
        if name == "Locked" {
            try out.bool(isLocked())
            return
        }
        let item = try visibleItem(collection, id, for: caller)
        switch name {
        case "Attributes": try out.stringDictionary(item.attributes)
        case "Label": try out.string(item.label)
        case "Type": try out.string(item.attributes[SecretItemRecord.schemaAttribute] ?? "")
        case "Created": try out.uint64(item.created)
        case "Modified": try out.uint64(item.modified)
        default: throw .notSupported("unknown property")
        }
    }

    func setItemProperty(_ name: String, collection: String, id: String, from value: BusReader, caller: SecretServiceCaller) throws(BusReplyError) {
        let item = try visibleItem(collection, id, for: caller)
        switch name {
        case "Attributes":
            // As in gnome-keyring, the schema (the `Type` property) is kept unless the new attributes name one.
            var attributes = try value.stringDictionary()
            if attributes[SecretItemRecord.schemaAttribute] == nil, let schema = item.attributes[SecretItemRecord.schemaAttribute] {
                attributes[SecretItemRecord.schemaAttribute] = schema
            }
            try store(collection).update(item, attributes: attributes)
        case "Label": try store(collection).update(item, label: try value.string())
        case "Type": try store(collection).update(item, attributes: item.withSchema(try value.string()).attributes)
        default: throw .notSupported("the property cannot be set")
        }
        itemChanged(collection, id)
    }

    private func itemChanged(_ collection: String, _ id: String) {
        emit(ObjectPath.collection(collection).path, "org.freedesktop.Secret.Collection", "ItemChanged") {
            out throws(BusReplyError) in try out.objectPath(Self.itemPath(collection, id))
        }
    }
}
