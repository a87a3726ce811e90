import Foundation
import KeychainClient
import KeychainModel
import Query

/// The collections and aliases, kept in the keychain as small generic-password items: a collection is one
/// under the service `org.freedesktop.secrets.collection` (account: its name, label: its label, `gena`: whether
/// it lasts for this login session only), an alias one under `org.freedesktop.secrets.alias` (account: the
/// alias, `gena`: the collection's name). Both are `AfterFirstUnlock`, so the collections are known while the
/// keychain is locked. As in gnome-keyring, two collections always exist: `login` (`default` names it unless set
/// otherwise) and `session`, whose items last for the login session; a record under their names only keeps a
/// label given to them.
struct CollectionCatalogue: Sendable {
    /// A collection.
    struct Collection: Sendable, Equatable {
        /// Its name, the last element of its path.
        var name: String
        /// Its label.
        var label: String
        /// Whether it lasts for the login session only (the `session` alias): removed when the provider starts.
        var isSessionOnly: Bool
        /// When it was created and last changed, in seconds since 1970 (0 for the built-in `login`).
        var created: UInt64
        var modified: UInt64
    }

    /// The collection of the user's items, which always exists.
    static let login = Collection(name: "login", label: "Login", isSessionOnly: false, created: 0, modified: 0)
    /// The collection whose items last for the login session, which always exists (unlabelled, as gnome-keyring's).
    static let session = Collection(name: "session", label: "", isSessionOnly: true, created: 0, modified: 0)
    /// The collections that always exist, in the order they are listed.
    static let builtIn = [login, session]

    /// Whether the collection `name` always exists (and so is never removed).
    static func isBuiltIn(_ name: String) -> Bool { builtIn.contains { $0.name == name } }

    private static let collectionService = "org.freedesktop.secrets.collection"
    private static let aliasService = "org.freedesktop.secrets.alias"

    let client: any KeychainClient

    /// Every collection, `login` and `session` first.
    func collections() throws(KeychainFailure) -> [Collection] {
        var found = Self.builtIn
        for attributes in try search(Self.collectionService) {
            guard case .string(let name)? = attributes[QueryKey.account], ObjectPath.isValidElement(name) else { continue }
            let label: String = if case .string(let label)? = attributes[QueryKey.label] { label } else { "" }
            if let builtIn = found.firstIndex(where: { $0.name == name }) {
                found[builtIn].label = label
                if !found[builtIn].isSessionOnly {
                    // As gnome-keyring shows its login keyring: created when first served, modified 0 until changed.
                    let created = Self.instant(attributes[QueryKey.creationDate]), modified = Self.instant(attributes[QueryKey.modificationDate])
                    found[builtIn].created = UInt64(max(created, 0))
                    found[builtIn].modified = modified > created ? UInt64(modified) : 0
                }
                continue
            }
            let sessionOnly: Bool = if case .data(let flag)? = attributes[QueryKey.generic] { flag == Data("session".utf8) } else { false }
            found.append(
                Collection(
                    name: name, label: label, isSessionOnly: sessionOnly, created: Self.seconds(attributes[QueryKey.creationDate]),
                    modified: Self.seconds(attributes[QueryKey.modificationDate])))
        }
        return found
    }

    /// Every alias and the collection it names; `default` names `login` unless set otherwise, and as in
    /// gnome-keyring, `login` and `session` name the collections of those names.
    func aliases() throws(KeychainFailure) -> [String: String] {
        var found = ["default": Self.login.name, Self.login.name: Self.login.name, Self.session.name: Self.session.name]
        for attributes in try search(Self.aliasService) {
            guard case .string(let alias)? = attributes[QueryKey.account], case .data(let target)? = attributes[QueryKey.generic]
            else { continue }
            found[alias] = String(decoding: target, as: UTF8.self)
        }
        return found
    }

    /// Adds a collection labelled `label`, named after it (letters, digits and `_`; a number added when taken).
    func create(label: String, sessionOnly: Bool, taken: Set<String>) throws(KeychainFailure) -> Collection {
        var base = String(
            label.lowercased().unicodeScalars.map { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_") ? Character(scalar) : "_"
            })
        if base.isEmpty || base.allSatisfy({ $0 == "_" }) { base = "collection" }
        var name = base
        var number = 1
        while taken.contains(name) {
            number += 1
            name = "\(base)\(number)"
        }
        var query = itemQuery(Self.collectionService, name)
        query[QueryKey.label] = .string(label)
        query[QueryKey.generic] = .data(Data((sessionOnly ? "session" : "persistent").utf8))
        query[QueryKey.accessible] = .string(ProtectionClass.afterFirstUnlock.rawValue)
        query[QueryKey.isInvisible] = .bool(true)
        _ = try client.blocking.add(query)
        let now = UInt64(Date().timeIntervalSince1970)
        return Collection(name: name, label: label, isSessionOnly: sessionOnly, created: now, modified: now)
    }

    /// Changes a collection's label; a built-in collection's is kept in a record of its own, made on its first
    /// change.
    func relabel(_ name: String, to label: String) throws(KeychainFailure) {
        let changes: QueryDictionary = [.string(QueryKey.label): .string(label)]
        do {
            try client.blocking.update(itemQuery(Self.collectionService, name), attributesToUpdate: changes)
        } catch  where error.status == .itemNotFound {
            guard let builtIn = Self.builtIn.first(where: { $0.name == name }) else { throw error }
            try addRecord(of: builtIn, label: label)
        }
    }

    /// Makes the record of the built-in collection `builtIn` when it has none, so that it has a creation date (the
    /// first time the provider served this keychain). Returns whether it made one.
    func record(_ builtIn: Collection) throws(KeychainFailure) -> Bool {
        do {
            try addRecord(of: builtIn, label: builtIn.label)
            return true
        } catch  where error.status == .duplicateItem {
            return false
        }
    }

    private func addRecord(of builtIn: Collection, label: String) throws(KeychainFailure) {
        var query = itemQuery(Self.collectionService, builtIn.name)
        query[QueryKey.label] = .string(label)
        query[QueryKey.generic] = .data(Data((builtIn.isSessionOnly ? "session" : "persistent").utf8))
        query[QueryKey.accessible] = .string(ProtectionClass.afterFirstUnlock.rawValue)
        query[QueryKey.isInvisible] = .bool(true)
        _ = try client.blocking.add(query)
    }

    /// Gives a built-in collection back its first label. Returns whether it had another.
    func resetLabel(of builtIn: Collection) throws(KeychainFailure) -> Bool {
        do {
            try client.blocking.delete(itemQuery(Self.collectionService, builtIn.name))
            return true
        } catch  where error.status == .itemNotFound {
            return false
        }
    }

    /// Removes a collection's record and the aliases that name it.
    func remove(_ name: String) throws(KeychainFailure) {
        try ignoringMissing { () throws(KeychainFailure) in try client.blocking.delete(itemQuery(Self.collectionService, name)) }
        for (alias, target) in try aliases() where target == name {
            try setAlias(alias, to: nil)
        }
    }

    /// Makes `alias` name `collection`, or no collection when nil.
    func setAlias(_ alias: String, to collection: String?) throws(KeychainFailure) {
        try ignoringMissing { () throws(KeychainFailure) in try client.blocking.delete(itemQuery(Self.aliasService, alias)) }
        guard let collection else { return }
        var query = itemQuery(Self.aliasService, alias)
        query[QueryKey.generic] = .data(Data(collection.utf8))
        query[QueryKey.accessible] = .string(ProtectionClass.afterFirstUnlock.rawValue)
        query[QueryKey.isInvisible] = .bool(true)
        _ = try client.blocking.add(query)
    }

    private func ignoringMissing(_ body: () throws(KeychainFailure) -> Void) throws(KeychainFailure) {
        do {
            try body()
        } catch  where error.status == .itemNotFound {
            return
        }
    }

    private func itemQuery(_ service: String, _ account: String) -> QueryDictionary {
        [
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword),
            .string(QueryKey.service): .string(service),
            .string(QueryKey.account): .string(account),
        ]
    }

    private func search(_ service: String) throws(KeychainFailure) -> [[String: KeychainValue]] {
        let query: QueryDictionary = [
            .string(QueryKey.itemClass): .string(QueryConstant.classGenericPassword),
            .string(QueryKey.service): .string(service),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll),
            .string(QueryKey.returnAttributes): .bool(true),
            .string(QueryKey.returnData): .bool(false),
        ]
        do {
            return SecretItemStore.dictionaries(try client.blocking.copyMatching(query))
        } catch  where error.status == .itemNotFound {
            return []
        }
    }

    /// A date attribute's seconds since 1970, to the fraction; 0 when absent.
    private static func instant(_ value: KeychainValue?) -> Double {
        guard case .date(let date)? = value else { return 0 }
        return date.timeIntervalSince1970
    }

    private static func seconds(_ value: KeychainValue?) -> UInt64 {
        guard case .date(let date)? = value, date.timeIntervalSince1970 > 0 else { return 0 }
        return UInt64(date.timeIntervalSince1970)
    }
}
