import Foundation
import KeychainModel
import Testing

@testable import ItemStore

/// A key as the engine would describe it (stand-in canonical bytes).
func keyItem(tag: String, keyClass: UInt8 = 1, group: String = "group.test", secret: Data? = bytes("key bytes")) -> NewItem {
    let index: [String: Data] = [
        "kcls": Data([keyClass]), "klbl": Data(), "atag": bytes(tag), "crtr": Data([0]), "type": bytes("73"),
        "bsiz": Data([1, 0]), "esiz": Data([1, 0]), "sdat": Data([0]), "edat": Data([0]), "agrp": bytes(group),
        "sync": Data([0]), "pdmn": bytes("ak"), "musr": Data(),
    ]
    return NewItem(
        itemClass: .key, protection: .whenUnlocked, attributes: bytes("attrs{atag=\(tag);kcls=\(keyClass)}"),
        secret: secret, indexValues: index, uniqueKey: bytes("\(tag)\u{0}\(keyClass)\u{0}\(group)"), persistentRef: nil)
}

/// Selects keys by application tag (and group).
func byTag(_ tag: String, group: String = "group.test") -> ItemSelection {
    ItemSelection(itemClass: .key, equal: ["atag": bytes(tag)], anyOf: ["agrp": [bytes(group)]])
}

@Suite("ItemStore: the keys table (schema v3)", .timeLimit(.minutes(10)))
struct KeyTableTests {
    @Test func keysAreStoredMatchedAndUniqueInTheirOwnTable() throws {
        try withStore { store, _, _ in
            let stored = try store.write { writer in
                [try writer.insert(keyItem(tag: "signing")), try writer.insert(keyItem(tag: "signing", keyClass: 0))]
            }
            #expect(throws: ItemStoreError.duplicateItem) { try store.write { try $0.insert(keyItem(tag: "signing")) } }
            let found = try store.read { try $0.select(byTag("signing")) }
            #expect(found.map(\.rowID) == stored.map(\.rowID))
            #expect(found.allSatisfy { $0.itemClass == .key })
            let privateOnly = try store.read {
                try $0.select(ItemSelection(itemClass: .key, equal: ["atag": bytes("signing"), "kcls": Data([1])]))
            }
            #expect(privateOnly.map(\.rowID) == [stored[0].rowID])
            #expect(try store.read { try $0.openSecret(found[0]) } == bytes("key bytes"))
            #expect(try store.read { try $0.count(of: .key) } == 2)
            #expect(try store.read { try $0.count(of: .genericPassword) } == 0)
            #expect(try store.write { try $0.delete(found) } == 2)
        }
    }

    @Test func lookupsByTagOrLabelUseTheirIndex() throws {
        try withStore { store, _, _ in
            let byTagPlan = try store.queryPlan(
                ItemSelection(
                    itemClass: .key, equal: ["atag": bytes("t"), "kcls": Data([1]), "type": bytes("73"), "sync": Data([0])],
                    anyOf: ["agrp": [bytes("g"), bytes("h")]]))
            #expect(byTagPlan.contains("keys_i_atag"), "\(byTagPlan)")
            let byLabelPlan = try store.queryPlan(
                ItemSelection(itemClass: .key, equal: ["klbl": bytes("l"), "kcls": Data([1])], anyOf: ["agrp": [bytes("g")]]))
            #expect(byLabelPlan.contains("keys_i_klbl"), "\(byLabelPlan)")
        }
    }

    /// A keychain left by a Coffer with schema v2 (passwords only) opens as v3: its passwords are intact and
    /// still found through their indexes, and the new table has Apple's key indexes, partial as v2 made them.
    @Test func aVersion2DatabaseMigratesToAKeysTable() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let keyring = FakeKeyring()
        let passwords: [StoredItem]
        do {
            var options = ItemStore.Options()
            options.lastMigration = "v2"
            let old = try ItemStore(databaseURL: folder.database, keyring: keyring, options: options)
            passwords = try old.write { writer in
                [try writer.insert(genericPassword(account: "alice")), try writer.insert(genericPassword(account: "bob"))]
            }
            #expect(throws: (any Error).self) { try old.write { try $0.insert(keyItem(tag: "t")) } }
        }
        #expect(try ItemStore.indexSQL("keys_i_atag", inDatabaseAt: folder.database) == nil)

        let store = try ItemStore(databaseURL: folder.database, keyring: keyring)
        let alice = try store.read { try $0.select(byAccount("alice")) }
        #expect(alice.map(\.persistentRef) == [passwords[0].persistentRef])
        #expect(try store.read { try $0.openSecret(alice[0]) } == bytes("secret"))
        #expect(try store.read { try $0.count(of: .genericPassword) } == 2)
        #expect(try store.queryPlan(byAccount("bob")).contains("genp_i_acct"))

        for code in [
            "kcls", "alis", "klbl", "atag", "crtr", "type", "bsiz", "esiz", "sdat", "edat", "encr", "decr",
            "drve", "sign", "vrfy", "wrap", "unwp", "sha1", "vwht", "tkid", "ggrp", "agrp",
        ] {
            let sql = try ItemStore.indexSQL("keys_i_\(code)", inDatabaseAt: folder.database)
            #expect(sql?.hasSuffix("WHERE i_\(code) IS NOT NULL") == true, "\(code): \(sql ?? "no index")")
        }
        #expect(try ItemStore.indexSQL("keys_i_perm", inDatabaseAt: folder.database) == nil)
        let added = try store.write { try $0.insert(keyItem(tag: "t")) }
        #expect(try store.read { try $0.select(byTag("t")) }.map(\.rowID) == [added.rowID])
    }

    /// A database at the current version is not written to when opened again (no migration runs).
    @Test func theCurrentSchemaHasEveryMigration() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        _ = try ItemStore(databaseURL: folder.database, keyring: FakeKeyring())
        let applied = try ItemStore.appliedMigrations(inDatabaseAt: folder.database)
        #expect(applied == ["v1", "v2", "v3", "v4", "v5", "v6"])
    }
}
