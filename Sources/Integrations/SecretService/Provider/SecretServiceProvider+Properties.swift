// Property reads and writes, by interface.
extension SecretServiceProvider {
    func property(
        _ path: ObjectPath, interface: String, name: String, into out: BusWriter, caller: SecretServiceCaller
    ) throws(BusReplyError) {
        switch (interface, path) {
        case ("org.freedesktop.Secret.Service", _):
            guard name == "Collections" else { throw .notSupported("unknown property") }
            try out.objectPaths(collections().map { ObjectPath.collection($0.name).path })
        case ("org.freedesktop.Secret.Collection", _):
            guard let collection = collectionName(path) else { throw .noSuchObject("no such collection") }
            try collectionProperty(name, collection: collection, into: out, caller: caller)
        case ("org.freedesktop.Secret.Item", .item(let collection, let id)):
            try itemProperty(name, collection: collection, id: id, into: out, caller: caller)
        default:
            throw .noSuchObject("no such object")
        }
    }

    func setProperty(
        _ path: ObjectPath, interface: String, name: String, from value: BusReader, caller: SecretServiceCaller
    ) throws(BusReplyError) {
        switch (interface, path) {
        case ("org.freedesktop.Secret.Collection", _):
            guard let collection = collectionName(path) else { throw .noSuchObject("no such collection") }
            try setCollectionProperty(name, collection: collection, from: value)
        case ("org.freedesktop.Secret.Item", .item(let collection, let id)):
            try setItemProperty(name, collection: collection, id: id, from: value, caller: caller)
        default:
            throw .notSupported("the property cannot be set")
        }
    }
}
