import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import Keystore
import Query
import Engine
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A fresh keychain in a temporary folder, reached through `transport`.
struct TestKeychain {
    let folder: KeychainFolder
    let transport: Transport
    let client: any KeychainClient
    private let daemon: InProcessDaemon?

    init(transport: Transport = .embedded, groups: [String]? = nil, folder: KeychainFolder? = nil) {
        let folder =
            folder
            ?? KeychainFolder(
                url: FileManager.default.temporaryDirectory
                    .appendingPathComponent("coffer-engine-\(UUID().uuidString)/keychain"))
        self.folder = folder
        self.transport = transport
        switch transport {
        case .embedded:
            let caller =
                groups.map { CallerContext(accessGroups: .list($0)) }
                ?? CallerContext(accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup))
            client = EmbeddedKeychain(folder: folder, caller: caller)
            daemon = nil
        case .daemon:
            // A test keychain that cannot start is a test failure; report it through every call.
            let daemon = try? InProcessDaemon(folder: folder, groups: groups)
            self.daemon = daemon
            client = DaemonKeychain(socketPath: daemon?.socketPath ?? "/nonexistent")
        }
    }

    /// The engine behind an embedded test keychain.
    var embedded: EmbeddedKeychain? { client as? EmbeddedKeychain }

    /// The same keychain files seen by another caller: another process (embedded), or a restarted daemon.
    func reopened(groups: [String]? = nil) -> TestKeychain { TestKeychain(transport: transport, groups: groups, folder: folder) }

    /// Sets a passcode (cheap KDF) and returns the keychain after a restart: before first unlock.
    func withPasscode(_ passcode: String = "1234") throws -> TestKeychain {
        try Keystore.open(folder: folder).setPasscode(SecretBytes(copying: Array(passcode.utf8)), kdf: .insecureForTesting)
        return reopened()
    }

    func add(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? { try client.statusCalls.add(query) }
    func copy(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? { try client.statusCalls.copyMatching(query) }
    func update(_ query: QueryDictionary, _ changes: QueryDictionary) throws(KeychainStatus) {
        try client.statusCalls.update(query, attributesToUpdate: changes)
    }
    func delete(_ query: QueryDictionary) throws(KeychainStatus) { try client.statusCalls.delete(query) }

    /// The status a call ends with (`.success` when it does not throw).
    func status(_ call: (TestKeychain) throws -> Void) -> KeychainStatus {
        do {
            try call(self)
            return .success
        } catch let status as KeychainStatus {
            return status
        } catch {
            return .internal
        }
    }
}

/// A generic password query for `service`/`account`, plus extra entries.
func genp(_ service: String = "svc", _ account: String = "acct", _ extra: QueryDictionary = [:]) -> QueryDictionary {
    var query: QueryDictionary = ["class": "genp", "svce": .string(service), "acct": .string(account)]
    for (key, value) in extra.entries { query.entries[key] = value }
    return query
}

func secretData(_ text: String) -> KeychainValue { .data(Data(text.utf8)) }

extension KeychainValue {
    /// The dictionary inside, for result checks.
    var dictionary: [String: KeychainValue]? {
        if case .dictionary(let entries) = self { return entries }
        return nil
    }

    /// The data inside, for result checks.
    var dataValue: Data? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }

    /// The array inside, for result checks.
    var arrayValue: [KeychainValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}
