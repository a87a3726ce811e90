import CSecretServiceBus
import CSystemdBus
import Foundation
import KeychainClient
import KeychainModel

/// The Secret Service objects and their state: the collections and aliases (``CollectionCatalogue``), the open
/// sessions, the pending prompts and who each client is (``CallerDirectory``): a client sees only the items its
/// program may see (``SecretServiceCaller/canSee(owner:)``), and other items are answered as if they did not
/// exist. It answers every event the bus thread hands it (``handle(_:path:interface:member:message:error:)``)
/// and is confined to that thread: nothing else touches it.
final class SecretServiceProvider {
    /// The collection that always exists, which the `default` alias names unless set otherwise.
    static let loginCollection = CollectionCatalogue.login.name

    let bus: OpaquePointer
    let client: any KeychainClient
    let catalogue: CollectionCatalogue
    /// The collections and aliases as last read, kept while the provider is the only one changing them; nil
    /// until they can be read (a keychain not yet unlocked since it started).
    var known: (collections: [CollectionCatalogue.Collection], aliases: [String: String])?
    let unlocker: SecretServiceUnlocker
    let completions: PromptCompletions
    let callers: CallerDirectory
    var sessions = SessionTable()
    var prompts = PromptTable()
    /// Whether items of the first format have been given their postings, and the collections of the last
    /// session removed, in this run.
    private var isPrepared = false

    init(
        bus: OpaquePointer, client: any KeychainClient, isolation: SecretServiceIsolation, unlocker: SecretServiceUnlocker,
        completions: PromptCompletions
    ) {
        self.bus = bus
        self.client = client
        catalogue = CollectionCatalogue(client: client)
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
                prompts.withdraw(ownedBy: member)
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
            prepareOnce()
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
    /// up in the keychain here: a call on a missing one answers as for a missing object (``BusReplyError/unknownObject(path:)``).
    private func exists(_ path: ObjectPath, interface: String) -> Bool {
        switch (path, interface) {
        case (.collection, "org.freedesktop.Secret.Collection"), (.alias, "org.freedesktop.Secret.Collection"):
            collectionName(path) != nil
        case (.item(let collection, _), "org.freedesktop.Secret.Item"): collectionName(.collection(collection)) != nil
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
            guard let collection = collectionName(path) else { throw .noSuchObject("no such collection") }
            try collectionCall(member, collection: collection, message: message, caller: caller)
        case "org.freedesktop.Secret.Item":
            guard case .item(let collection, let id) = path, collectionName(.collection(collection)) != nil else {
                throw .unknownObject(path: path.path)
            }
            try itemCall(member, collection: collection, id: id, message: message, caller: caller)
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
            coffer_sd_bus_message_unref(reply)
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
            coffer_sd_bus_message_unref(signal)
        }
    }

    // MARK: Lock state

    /// Gives items stored by the first provider their postings and removes the collections of the last login
    /// session, once per run, as soon as the keychain is unlocked.
    private func prepareOnce() {
        guard !isPrepared, !isLocked() else { return }
        guard (try? store(Self.loginCollection).indexUnindexedItems()) != nil else { return }
        for collection in collections() where collection.isSessionOnly {
            try? deleteCollection(collection.name, visibleTo: nil)
        }
        // The built-in session collection stays; a label given to it lasted for the last session only.
        if (try? catalogue.resetLabel(of: CollectionCatalogue.session)) == true { known = nil }
        if (try? catalogue.record(CollectionCatalogue.login)) == true { known = nil }
        isPrepared = true
    }

    /// Whether the keychain is locked (items of the collections cannot be read). A keychain whose state cannot
    /// be read counts as locked.
    func isLocked() -> Bool {
        guard let status = try? client.blocking.lockStatus() else { return true }
        return status.lockState != .unlocked
    }
}
