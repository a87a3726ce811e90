/// The objects the provider exports, and their D-Bus object paths.
///
/// Collection names are path elements (`login`, or one made from a label by ``CollectionCatalogue``); item names
/// are the items' stable ids (hexadecimal, valid as a path element).
enum ObjectPath: Hashable, Sendable {
    /// `/org/freedesktop/secrets`, the service.
    case service
    /// A collection, by name, at `/org/freedesktop/secrets/collection/NAME`.
    case collection(String)
    /// A collection reached by an alias, at `/org/freedesktop/secrets/aliases/NAME`.
    case alias(String)
    /// An item of a collection, at `/org/freedesktop/secrets/collection/NAME/ID`.
    case item(collection: String, id: String)
    /// A session, at `/org/freedesktop/secrets/session/ID`.
    case session(String)
    /// A prompt, at `/org/freedesktop/secrets/prompt/ID`.
    case prompt(String)
    /// `/`, "no object" (no prompt needed).
    case none

    static let root = "/org/freedesktop/secrets"

    /// Parses `path`; nil when it names nothing the provider could export.
    init?(_ path: String) {
        if path == "/" {
            self = .none
            return
        }
        if path == Self.root {
            self = .service
            return
        }
        guard path.hasPrefix(Self.root + "/") else { return nil }
        let elements = path.dropFirst(Self.root.count + 1).split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard elements.allSatisfy(Self.isValidElement) else { return nil }
        switch (elements.first, elements.count) {
        case ("collection", 2): self = .collection(elements[1])
        case ("collection", 3): self = .item(collection: elements[1], id: elements[2])
        case ("aliases", 2): self = .alias(elements[1])
        case ("session", 2): self = .session(elements[1])
        case ("prompt", 2): self = .prompt(elements[1])
        default: return nil
        }
    }

    /// The D-Bus object path.
    var path: String {
        switch self {
        case .service: Self.root
        case .collection(let name): "\(Self.root)/collection/\(name)"
        case .alias(let name): "\(Self.root)/aliases/\(name)"
        case .item(let collection, let id): "\(Self.root)/collection/\(collection)/\(id)"
        case .session(let id): "\(Self.root)/session/\(id)"
        case .prompt(let id): "\(Self.root)/prompt/\(id)"
        case .none: "/"
        }
    }

    /// Whether `element` may be a path element: `[A-Za-z0-9_]+`.
    static func isValidElement(_ element: String) -> Bool {
        !element.isEmpty
            && element.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte == 0x5f
            }
    }
}
