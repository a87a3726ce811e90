import BackupFormat
import Coffer
import CofferTestSupport
import Engine
import Foundation
import KeychainSelection
import KeychainModel
import Keystore
import Query
import Testing

/// A keychain in a temporary folder (its own device key), reached in this process or through a daemon, seeded
/// directly through the engine in one transaction, and inspected through the engine's own export.
final class BackupKeychain: @unchecked Sendable {
    let root: URL
    let folder: KeychainFolder
    let daemon: InProcessDaemon?
    let keychain: Keychain
    let engine: KeychainEngine
    static let caller = CallerContext(accessGroups: .unrestricted(defaultGroup: "test"))

    init(_ transport: Transport) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-backup-\(UUID().uuidString)")
        folder = KeychainFolder(url: root.appendingPathComponent("keychain"))
        engine = try KeychainEngine.open(folder: folder)
        switch transport {
        case .embedded:
            daemon = nil
            keychain = Keychain(folder: folder.url)
        case .daemon:
            let daemon = try InProcessDaemon(folder: folder, groups: ["test"])
            self.daemon = daemon
            keychain = Keychain(client: DaemonKeychain(socketPath: daemon.socketPath))
        }
    }

    /// Adds items in one transaction.
    func seed(_ queries: [QueryDictionary]) throws {
        let requests = try queries.map { query throws(QueryRejection) in try QueryParser.parseAdd(query) }
        try engine.add(contentsOf: requests, caller: Self.caller)
    }

    /// Every item that may leave, as the keychain stores it (class, protection, attributes, data), sorted.
    func portableItems() throws -> [BackupRecord] {
        try engine.exportBackup(caller: Self.caller).parts.flatMap { try BackupRecordStream.decode($0) }.sorted {
            ($0.itemClass.rawValue, $0.attributes.base64EncodedString()) < ($1.itemClass.rawValue, $1.attributes.base64EncodedString())
        }
    }

    /// How many rows the keychain holds, of every class.
    func rowCount() throws -> Int {
        let exported = try engine.exportBackup(caller: Self.caller)
        return exported.itemCount + exported.thisDeviceOnly + exported.passcodeSetOnly + exported.nonExtractableKeys + exported.deviceBound
    }

    /// A path in the test's folder.
    func file(_ name: String) -> URL { root.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: root) }
}

/// Item dictionaries of every class that may leave, `count` in all.
func mixedItems(_ count: Int, prefix: String = "item") -> [QueryDictionary] {
    (0..<count).map { index in
        let secret = KeychainValue.data(Data("secret-\(prefix)-\(index)".utf8))
        switch index % 4 {
        case 0:
            return ["class": "genp", "svce": .string("svc-\(prefix)"), "acct": .string("acct-\(index)"), "labl": "label", "v_Data": secret]
        case 1:
            return [
                "class": "inet", "srvr": .string("\(prefix)-\(index).example.com"), "acct": "alice", "ptcl": "htps", "port": 443, "v_Data": secret,
                "pdmn": "ck",
            ]
        case 2:
            return [
                "class": "cert", "ctyp": 1, "issr": .data(Data("issuer-\(prefix)".utf8)), "slnr": .data(Data("serial-\(index)".utf8)),
                "v_Data": .data(Data("certificate-\(prefix)-\(index)".utf8)), "pdmn": "dk",
            ]
        default:
            return [
                "class": "keys", "kcls": 1, "type": 73, "bsiz": 256, "klbl": .data(Data("key-\(prefix)-\(index)".utf8)),
                "atag": .data(Data("tag".utf8)), "v_Data": secret,
            ]
        }
    }
}

/// Items that stay behind: two of each ThisDeviceOnly class and two non-extractable keys.
func itemsThatStay() -> [QueryDictionary] {
    var items: [QueryDictionary] = []
    for (index, protection) in ["aku", "cku", "dku", "aku", "cku", "dku"].enumerated() {
        items.append(["class": "genp", "svce": "stays", "acct": .string("stays-\(index)"), "pdmn": .string(protection), "v_Data": .data(Data("x".utf8))])
    }
    for index in 0..<2 {
        items.append([
            "class": "keys", "kcls": 1, "type": 73, "bsiz": 256, "klbl": .data(Data("fixed-\(index)".utf8)), "extr": false,
            "v_Data": .data(Data("key".utf8)),
        ])
    }
    return items
}

extension SecretBytes {
    /// Test text as secret bytes.
    convenience init(text: String) { self.init(copying: Array(text.utf8)) }
}

extension BackupKeychain {
    /// Restores into this keychain every copy of the backup `original` with one byte flipped (written to `damaged`,
    /// opened with `key`), and counts how each was refused; a copy that restores is recorded as an issue.
    /// `check` sees each refusal and the offset flipped.
    func restoreEveryByteFlip(
        of original: Data, key: RecoveryKey, damaged: URL, filesTo: URL? = nil, check: (BackupError, Int) -> Void = { _, _ in }
    ) async throws -> [BackupError.Kind: Int] {
        var kinds: [BackupError.Kind: Int] = [:]
        for offset in 0..<original.count {
            var bytes = original
            bytes[offset] ^= 0xFF
            try bytes.write(to: damaged)
            do {
                _ = try await keychain.restore(from: damaged, protection: .recoveryKey(key), filesTo: filesTo)
                Issue.record("a flip at byte \(offset) of \(original.count) was not detected")
            } catch {
                kinds[error.kind, default: 0] += 1
                check(error, offset)
            }
        }
        return kinds
    }
}
