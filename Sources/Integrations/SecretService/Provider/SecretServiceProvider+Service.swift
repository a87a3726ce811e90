import CSecretServiceBus
import Foundation

// org.freedesktop.Secret.Service: sessions, searches across collections, lock state, secrets in bulk, aliases.
extension SecretServiceProvider {
    func serviceCall(_ member: String, message: OpaquePointer, caller: SecretServiceCaller) throws(BusReplyError) {
        let arguments = BusReader(message: message)
        switch member {
        case "OpenSession":
            let algorithm = try arguments.string()
            switch algorithm {
            case "plain":
                // The input is an empty string; anything else is refused, as gnome-keyring refuses it.
                guard try arguments.variantString() != nil else { throw .invalidArguments("the plain algorithm's input is a string") }
                let session = sessions.open(owner: Self.sender(message), algorithm: .plain)
                try reply(to: message) { out throws(BusReplyError) in
                    try out.variant("s") { value throws(BusReplyError) in try value.string("") }
                    try out.objectPath(session.path)
                }
            case "dh-ietf1024-sha256-aes128-cbc-pkcs7":
                guard let peer = try arguments.variantBytes() else { throw .invalidArguments("the input is not a public key") }
                let exchange = try DiffieHellmanExchange.respond(to: peer)
                let session = sessions.open(owner: Self.sender(message), algorithm: .aes(exchange.key))
                try reply(to: message) { out throws(BusReplyError) in
                    try out.variant("ay") { value throws(BusReplyError) in try value.bytes(exchange.publicKey) }
                    try out.objectPath(session.path)
                }
            default:
                // libsecret then falls back to `plain`.
                throw .notSupported("the algorithm \(algorithm) is not supported")
            }
        case "SearchItems":
            let query = try arguments.stringDictionary()
            let found = try searchPaths(query, for: caller)
            try reply(to: message) { out throws(BusReplyError) in
                try out.objectPaths(found.unlocked)
                try out.objectPaths(found.locked)
            }
        case "Unlock":
            let objects = try arguments.objectPaths()
            if isLocked() {
                let prompt = prompts.add(.unlock(objects), owner: Self.sender(message))
                try reply(to: message) { out throws(BusReplyError) in
                    try out.objectPaths([])
                    try out.objectPath(ObjectPath.prompt(prompt).path)
                }
            } else {
                try reply(to: message) { out throws(BusReplyError) in
                    try out.objectPaths(objects)
                    try out.objectPath("/")
                }
            }
        case "Lock":
            let objects = try arguments.objectPaths()
            // Without a passcode the keychain stays unlocked: then nothing is reported locked.
            _ = try? client.blocking.lock()
            let locked = isLocked() ? objects : []
            try reply(to: message) { out throws(BusReplyError) in
                try out.objectPaths(locked)
                try out.objectPath("/")
            }
        case "GetSecrets":
            let items = try arguments.objectPaths()
            guard let session = sessions.session(at: try arguments.objectPath()) else { throw .noSession("the session is not open") }
            var secrets: [(path: String, secret: TransportedSecret)] = []
            if !isLocked() {
                for path in items {
                    guard case .item(let collection, let id)? = ObjectPath(path), self.collection(collection) != nil,
                        let found = try store(collection).secret(id: id), caller.canSee(owner: found.record.owner)
                    else { continue }
                    secrets.append((path, session.encode(found.value, contentType: found.record.contentType)))
                }
            }
            try reply(to: message) { out throws(BusReplyError) in try out.secrets(secrets) }
        case "ReadAlias":
            let alias = try arguments.string()
            let path = collectionName(forAlias: alias).map { ObjectPath.collection($0).path } ?? "/"
            try reply(to: message) { out throws(BusReplyError) in try out.objectPath(path) }
        case "CreateCollection":
            let label = try arguments.collectionLabel() ?? ""
            let alias = try arguments.string()
            guard !isLocked() else { throw .isLocked("the keychain is locked") }
            let name = try createCollection(label: label, alias: alias)
            try reply(to: message) { out throws(BusReplyError) in
                try out.objectPath(ObjectPath.collection(name).path)
                try out.objectPath("/")
            }
        case "SetAlias":
            let alias = try arguments.string()
            let target = try arguments.objectPath()
            // As gnome-keyring: the one alias a client may set is `default`.
            guard alias == "default" else { throw .notSupported("only the 'default' alias can be set") }
            let collection: String?
            if target == "/" {
                collection = nil
            } else {
                guard let path = ObjectPath(target), let name = collectionName(path) else { throw .noSuchObject("no such collection") }
                collection = name
            }
            try setAlias(alias, to: collection)
            try reply(to: message) { _ throws(BusReplyError) in }
        default:
            throw .notSupported("unknown method")
        }
    }

    /// The unique bus name of a call's sender.
    static func sender(_ message: OpaquePointer) -> String {
        coffer_secret_sender(message).map { String(cString: $0) } ?? ""
    }
}
