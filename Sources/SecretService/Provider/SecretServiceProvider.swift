import CSecretServiceBus
import Foundation
import KeychainClient
import KeychainModel

/// The Secret Service objects and their state: the one collection (`login`), the open sessions, the
/// pending prompts and who each client is (``CallerDirectory``): a client sees only the items its program
/// may see (``SecretServiceCaller/canSee(owner:)``), and other items are answered as if they did not exist. It answers every event the bus thread hands it (``handle(_:path:interface:member:message:error:)``)
/// and is confined to that thread: nothing else touches it.
final class SecretServiceProvider {
    /// The name of the one collection, which the `default` alias names.
    static let loginCollection = "login"

    let bus: OpaquePointer
    let store: SecretItemStore
    let unlocker: SecretServiceUnlocker
    let completions: PromptCompletions
    let callers: CallerDirectory
    var sessions = SessionTable()
    var prompts = PromptTable()
    /// Whether items of the first format have been given their postings in this run.
    private var isIndexed = false

    init(
        bus: OpaquePointer, client: any KeychainClient, isolation: SecretServiceIsolation, unlocker: SecretServiceUnlocker,
        completions: PromptCompletions
    ) {
        self.bus = bus
        self.store = SecretItemStore(client: client, collection: Self.loginCollection)
        self.unlocker = unlocker
        self.completions = completions
        callers = CallerDirectory(bus: bus, client: client, isolation: isolation)
    }

    /// Answers one event from the C trampolines (``coffer_secret_handler``).
    func handle(
        _ event: coffer_secret_event, path: String, interface: String, member: String?, message: OpaquePointer?,
        error: UnsafeMutablePointer<sd_bus_error>?
    ) -> Int32 {
        if event == COFFER_SECRET_DEPARTED {
            if let member {
                sessions.close(ownedBy: member)
                callers.forget(member)
            }
            return 0
        }
        guard let parsed = ObjectPath(path) else { return event == COFFER_SECRET_FIND ? 0 : -ENOENT }
        if event == COFFER_SECRET_FIND { return exists(parsed, interface: interface) ? 1 : 0 }
        guard let member, let message else { return -EINVAL }
        let sender = event == COFFER_SECRET_CALL ? coffer_secret_sender(message) : coffer_secret_current_sender(bus)
        let caller = callers.caller(sender.map { String(cString: $0) } ?? "")
        do throws(BusReplyError) {
            indexOldItemsOnce()
            switch event {
            case COFFER_SECRET_CALL:
                try call(parsed, interface: interface, member: member, message: message, caller: caller)
            case COFFER_SECRET_GET:
                try property(parsed, interface: interface, name: member, into: BusWriter(message: message), caller: caller)
            case COFFER_SECRET_SET:
                try setProperty(parsed, interface: interface, name: member, from: BusReader(message: message), caller: caller)
            default:
                return -EINVAL
            }
            return 1
        } catch let failure {
            return coffer_secret_error(error, failure.name, failure.text)
        }
    }

    /// Whether an object of `interface` exists at `path` (the fallback vtables' lookups). Items are not looked
    /// up in the keychain here: a call on a missing one answers `NoSuchObject`.
    private func exists(_ path: ObjectPath, interface: String) -> Bool {
        switch (path, interface) {
        case (.collection(let name), "org.freedesktop.Secret.Collection"): name == Self.loginCollection
        case (.alias(let name), "org.freedesktop.Secret.Collection"): Self.collection(forAlias: name) != nil
        case (.item(let collection, _), "org.freedesktop.Secret.Item"): collection == Self.loginCollection
        case (.session(let id), "org.freedesktop.Secret.Session"): sessions.contains(id)
        case (.prompt(let id), "org.freedesktop.Secret.Prompt"): prompts.contains(id)
        default: false
        }
    }

    private func call(
        _ path: ObjectPath, interface: String, member: String, message: OpaquePointer, caller: SecretServiceCaller
    ) throws(BusReplyError) {
        switch interface {
        case "org.freedesktop.Secret.Service":
            try serviceCall(member, message: message, caller: caller)
        case "org.freedesktop.Secret.Collection":
            guard let collection = Self.collectionName(path) else { throw .noSuchObject("no such collection") }
            try collectionCall(member, collection: collection, message: message, caller: caller)
        case "org.freedesktop.Secret.Item":
            guard case .item(_, let id) = path else { throw .noSuchObject("no such item") }
            try itemCall(member, id: id, message: message, caller: caller)
        case "org.freedesktop.Secret.Session":
            guard case .session(let id) = path, member == "Close" else { throw .notSupported("unknown method") }
            sessions.close(id)
            try reply(to: message) { _ throws(BusReplyError) in }
        case "org.freedesktop.Secret.Prompt":
            guard case .prompt(let id) = path else { throw .noSuchObject("no such prompt") }
            try promptCall(member, id: id, message: message)
        default:
            throw .notSupported("unknown interface")
        }
    }

    /// Sends the method return of `call`, with the out arguments `body` writes.
    func reply(to call: OpaquePointer, _ body: (BusWriter) throws(BusReplyError) -> Void) throws(BusReplyError) {
        var reply: OpaquePointer?
        guard coffer_secret_reply_new(call, &reply) >= 0, let reply else { throw .failed("the reply could not be made") }
        do {
            try body(BusWriter(message: reply))
        } catch {
            sd_bus_message_unref(reply)
            throw error
        }
        guard coffer_secret_send(reply) >= 0 else { throw .failed("the reply could not be sent") }
    }

    /// Emits the signal `interface`.`member` from `path`, with the arguments `body` writes. A signal that
    /// cannot be sent is dropped: clients that miss it read the state again.
    func emit(_ path: String, _ interface: String, _ member: String, _ body: (BusWriter) throws(BusReplyError) -> Void) {
        var signal: OpaquePointer?
        guard coffer_secret_signal_new(bus, path, interface, member, &signal) >= 0, let signal else { return }
        do {
            try body(BusWriter(message: signal))
            _ = coffer_secret_send(signal)
        } catch {
            sd_bus_message_unref(signal)
        }
    }

    // MARK: Collections and lock state

    /// The collection an alias names: `default` (and `login`) name `login`.
    static func collection(forAlias alias: String) -> String? {
        alias == "default" || alias == loginCollection ? loginCollection : nil
    }

    /// The collection a collection or alias path names.
    static func collectionName(_ path: ObjectPath) -> String? {
        switch path {
        case .collection(let name) where name == loginCollection: name
        case .alias(let alias): collection(forAlias: alias)
        default: nil
        }
    }

    /// The path of an item of the login collection.
    static func itemPath(_ id: String) -> String { ObjectPath.item(collection: loginCollection, id: id).path }

    /// The item `id` when `caller` may see it; an item it may not see does not exist for it.
    func visibleItem(_ id: String, for caller: SecretServiceCaller) throws(BusReplyError) -> SecretItemRecord {
        guard let item = try store.item(id: id), caller.canSee(owner: item.owner) else { throw .noSuchObject("no such item") }
        return item
    }

    /// The paths of `caller`'s items that match `query`: `unlocked` read from the items, or, with the keychain
    /// locked, `locked` from the postings alone (an empty query then finds nothing: no posting answers it).
    func searchPaths(_ query: [String: String], for caller: SecretServiceCaller) throws(BusReplyError) -> (unlocked: [String], locked: [String]) {
        if isLocked() {
            let locked = try store.candidates(query).filter { caller.canSee(owner: $0.value) }.keys.sorted().map(Self.itemPath)
            return ([], locked)
        }
        return (try store.search(query, where: caller.canSee(owner:)).map { Self.itemPath($0.id) }, [])
    }

    /// Gives items stored by the first provider their postings, once per run, as soon as the keychain is unlocked.
    private func indexOldItemsOnce() {
        guard !isIndexed, !isLocked() else { return }
        isIndexed = (try? store.indexUnindexedItems()) != nil
    }

    /// Whether the keychain is locked (items of the collection cannot be read). A keychain whose state cannot
    /// be read counts as locked.
    func isLocked() -> Bool {
        guard let status = try? store.client.blocking.lockStatus() else { return true }
        return status.lockState != .unlocked
    }
}
