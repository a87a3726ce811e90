import Crypto
import Foundation
import KeychainModel
import Synchronization

@testable import ItemStore

/// What the fake keyring throws for an unavailable key.
enum FakeKeyringError: Error, Equatable {
    case locked(ProtectionClass)
    case noIndexKey
}

/// An in-memory ``ItemKeyring``: random class, metadata and index keys; counts calls; can make classes
/// (or the index key) unavailable, as a locked keychain would.
final class FakeKeyring: ItemKeyring {
    struct Counts: Equatable {
        var wrap = 0
        var unwrap = 0
        var metadata = 0
        var index = 0
    }

    private struct State {
        var locked: Set<ProtectionClass> = []
        var indexKeyAvailable = true
        var counts = Counts()
    }

    private let classKeys: [ProtectionClass: SymmetricKey]
    private let metadataKeys: [ProtectionClass: SymmetricKey]
    let index: SymmetricKey
    private let state = Mutex(State())

    /// Random keys, or keys derived from `seed` (so that another process can build the same keyring).
    init(seed: Data? = nil) {
        let master = seed.map { SymmetricKey(data: $0) }
        func key(_ name: String) -> SymmetricKey {
            guard let master else { return SymmetricKey(size: .bits256) }
            return HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data(name.utf8), outputByteCount: 32)
        }
        var classKeys: [ProtectionClass: SymmetricKey] = [:]
        var metadataKeys: [ProtectionClass: SymmetricKey] = [:]
        for protection in ProtectionClass.allCases {
            classKeys[protection] = key("class-\(protection.rawValue)")
            metadataKeys[protection] = key("metadata-\(protection.rawValue)")
        }
        self.classKeys = classKeys
        self.metadataKeys = metadataKeys
        self.index = key("index")
    }

    var counts: Counts { state.withLock { $0.counts } }
    func resetCounts() { state.withLock { $0.counts = Counts() } }
    func lock(_ protections: Set<ProtectionClass>) { state.withLock { $0.locked = protections } }
    func setIndexKeyAvailable(_ available: Bool) { state.withLock { $0.indexKeyAvailable = available } }

    private func classKey(_ protection: ProtectionClass) throws -> SymmetricKey {
        if state.withLock({ $0.locked.contains(protection) }) { throw FakeKeyringError.locked(protection) }
        return classKeys[protection]!
    }

    func wrapItemKey(_ key: SymmetricKey, protection: ProtectionClass) throws -> Data {
        state.withLock { $0.counts.wrap += 1 }
        return try AES.KeyWrap.wrap(key, using: classKey(protection))
    }

    func unwrapItemKey(_ wrapped: Data, protection: ProtectionClass) throws -> SymmetricKey {
        state.withLock { $0.counts.unwrap += 1 }
        return try AES.KeyWrap.unwrap(wrapped, using: classKey(protection))
    }

    func metadataKey(for protection: ProtectionClass) throws -> SymmetricKey {
        state.withLock { $0.counts.metadata += 1 }
        _ = try classKey(protection)
        return metadataKeys[protection]!
    }

    func indexKey() throws -> SymmetricKey {
        try state.withLock {
            $0.counts.index += 1
            guard $0.indexKeyAvailable else { throw FakeKeyringError.noIndexKey }
            return index
        }
    }
}

/// A fresh 0700 folder under the temporary directory, removed by ``remove()``.
struct TempFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("itemstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    var database: URL { url.appendingPathComponent("keychain.db") }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

func bytes(_ string: String) -> Data { Data(string.utf8) }

/// A generic password as the engine would describe it (with simple stand-in canonical bytes).
func genericPassword(
    account: String,
    service: String = "svc",
    group: String = "group.test",
    secret: Data? = bytes("secret"),
    protection: ProtectionClass = .whenUnlocked,
    label: String? = nil,
    persistentRef: Data? = nil
) -> NewItem {
    var index: [String: Data] = [
        "acct": bytes(account), "svce": bytes(service), "agrp": bytes(group), "sync": Data([0]),
        "pdmn": bytes(protection.rawValue), "musr": Data(),
    ]
    if let label { index["labl"] = bytes(label) }
    let attributes = bytes("attrs{acct=\(account);svce=\(service);agrp=\(group);labl=\(label ?? "")}")
    let unique = bytes("\(account)\u{0}\(service)\u{0}\(group)\u{0}0")
    return NewItem(
        itemClass: .genericPassword, protection: protection, attributes: attributes, secret: secret,
        indexValues: index, uniqueKey: unique, persistentRef: persistentRef)
}

/// Selects generic passwords by account (and service, group).
func byAccount(_ account: String, service: String = "svc", group: String = "group.test") -> ItemSelection {
    ItemSelection(
        itemClass: .genericPassword, equal: ["acct": bytes(account), "svce": bytes(service)],
        anyOf: ["agrp": [bytes(group)]])
}

/// Opens a store in a fresh folder, runs `body`, then removes the folder.
func withStore<T>(
    keyring: FakeKeyring = FakeKeyring(), options: ItemStore.Options = .init(),
    _ body: (ItemStore, FakeKeyring, TempFolder) throws -> T
) throws -> T {
    let folder = try TempFolder()
    defer { folder.remove() }
    let store = try ItemStore(databaseURL: folder.database, keyring: keyring, options: options)
    return try body(store, keyring, folder)
}

struct TestError: Error, Equatable {}
