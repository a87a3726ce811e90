// Property reads and writes, by interface.
extension SecretServiceProvider {
    func property(
        _ path: ObjectPath, interface: String, name: String, into out: BusWriter, caller: SecretServiceCaller
    ) throws(BusReplyError) {
        switch (interface, path) {
        case ("org.freedesktop.Secret.Service", _):
            guard name == "Collections" else { throw .notSupported("unknown property") }
            try out.objectPaths([ObjectPath.collection(Self.loginCollection).path])
        case ("org.freedesktop.Secret.Collection", _):
            try collectionProperty(name, into: out, caller: caller)
        case ("org.freedesktop.Secret.Item", .item(_, let id)):
            try itemProperty(name, id: id, into: out, caller: caller)
        default:
            throw .noSuchObject("no such object")
        }
    }

    func setProperty(
        _ path: ObjectPath, interface: String, name: String, from value: BusReader, caller: SecretServiceCaller
    ) throws(BusReplyError) {
        switch (interface, path) {
        case ("org.freedesktop.Secret.Item", .item(_, let id)):
            try setItemProperty(name, id: id, from: value, caller: caller)
        default:
            throw .notSupported("the property cannot be set")
        }
    }
}
