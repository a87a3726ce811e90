import Foundation
import KeychainModel
import Testing

@testable import ItemStore

/// A certificate as the engine would describe it (stand-in canonical bytes).
func certificateItem(serial: String, issuer: String = "issuer", group: String = "group.test") -> NewItem {
    let index: [String: Data] = [
        "ctyp": Data([3]), "cenc": Data([3]), "issr": bytes(issuer), "slnr": bytes(serial), "subj": bytes("subject"),
        "pkhh": bytes("hash of \(serial)"), "labl": bytes("label"), "agrp": bytes(group), "sync": Data([0]),
        "pdmn": bytes("dk"), "musr": Data(),
    ]
    return NewItem(
        itemClass: .certificate, protection: .always, attributes: bytes("attrs{slnr=\(serial)}"), secret: bytes("DER"),
        indexValues: index, uniqueKey: bytes("3\u{0}\(issuer)\u{0}\(serial)\u{0}\(group)"), persistentRef: nil)
}

/// Selects certificates by issuer and serial number (and group).
func byIssuerAndSerial(_ serial: String, issuer: String = "issuer", group: String = "group.test") -> ItemSelection {
    ItemSelection(itemClass: .certificate, equal: ["issr": bytes(issuer), "slnr": bytes(serial)], anyOf: ["agrp": [bytes(group)]])
}

@Suite("ItemStore: the cert table (schema v4)", .timeLimit(.minutes(10)))
struct CertificateTableTests {
    @Test func certificatesAreStoredMatchedAndUniqueInTheirOwnTable() throws {
        try withStore { store, _, _ in
            let stored = try store.write { writer in
                [try writer.insert(certificateItem(serial: "01")), try writer.insert(certificateItem(serial: "01", group: "other"))]
            }
            #expect(throws: ItemStoreError.duplicateItem) { try store.write { try $0.insert(certificateItem(serial: "01")) } }
            let found = try store.read { try $0.select(byIssuerAndSerial("01")) }
            #expect(found.map(\.rowID) == [stored[0].rowID])
            #expect(found.allSatisfy { $0.itemClass == .certificate })
            #expect(try store.read { try $0.openSecret(found[0]) } == bytes("DER"))
            #expect(try store.read { try $0.count(of: .certificate) } == 2)
            #expect(try store.read { try $0.count(of: .key) } == 0)
            #expect(try store.write { try $0.delete(found) } == 1)
        }
    }

    @Test func lookupsByIssuerSerialOrPublicKeyHashUseTheirIndex() throws {
        try withStore { store, _, _ in
            let bySerial = try store.queryPlan(
                ItemSelection(
                    itemClass: .certificate, equal: ["issr": bytes("i"), "slnr": bytes("s"), "ctyp": Data([3]), "sync": Data([0])],
                    anyOf: ["agrp": [bytes("g"), bytes("h")]]))
            #expect(bySerial.contains("cert_i_slnr"), "\(bySerial)")
            let byHash = try store.queryPlan(
                ItemSelection(itemClass: .certificate, equal: ["pkhh": bytes("h")], anyOf: ["agrp": [bytes("g")]]))
            #expect(byHash.contains("cert_i_pkhh"), "\(byHash)")
        }
    }

    /// A keychain left by a Coffer with schema v3 (passwords and keys) opens as v4: its passwords and keys are
    /// intact and still found through their indexes, and the new table has Apple's certificate indexes, partial.
    @Test func aVersion3DatabaseMigratesToACertTable() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let keyring = FakeKeyring()
        let password: StoredItem
        let key: StoredItem
        do {
            var options = ItemStore.Options()
            options.lastMigration = "v3"
            let old = try ItemStore(databaseURL: folder.database, keyring: keyring, options: options)
            (password, key) = try old.write { writer in
                (try writer.insert(genericPassword(account: "alice")), try writer.insert(keyItem(tag: "signing")))
            }
            #expect(throws: (any Error).self) { try old.write { try $0.insert(certificateItem(serial: "01")) } }
        }
        #expect(try ItemStore.indexSQL("cert_i_issr", inDatabaseAt: folder.database) == nil)
        #expect(try ItemStore.appliedMigrations(inDatabaseAt: folder.database) == ["v1", "v2", "v3"])

        let store = try ItemStore(databaseURL: folder.database, keyring: keyring)
        let alice = try store.read { try $0.select(byAccount("alice")) }
        #expect(alice.map(\.persistentRef) == [password.persistentRef])
        #expect(try store.read { try $0.openSecret(alice[0]) } == bytes("secret"))
        let signing = try store.read { try $0.select(byTag("signing")) }
        #expect(signing.map(\.persistentRef) == [key.persistentRef])
        #expect(try store.read { try $0.openSecret(signing[0]) } == bytes("key bytes"))
        #expect(try store.queryPlan(byAccount("alice")).contains("genp_i_acct"))
        #expect(try store.queryPlan(byTag("signing")).contains("keys_i_atag"))

        for code in ["ctyp", "alis", "subj", "issr", "slnr", "skid", "pkhh", "sha1", "vwht", "tkid", "ggrp", "agrp"] {
            let sql = try ItemStore.indexSQL("cert_i_\(code)", inDatabaseAt: folder.database)
            #expect(sql?.hasSuffix("WHERE i_\(code) IS NOT NULL") == true, "\(code): \(sql ?? "no index")")
        }
        // v5 indexes the label, partially, like the rest.
        #expect(try ItemStore.indexSQL("cert_i_labl", inDatabaseAt: folder.database)?.hasSuffix("WHERE i_labl IS NOT NULL") == true)
        let added = try store.write { try $0.insert(certificateItem(serial: "01")) }
        #expect(try store.read { try $0.select(byIssuerAndSerial("01")) }.map(\.rowID) == [added.rowID])
        #expect(try ItemStore.appliedMigrations(inDatabaseAt: folder.database) == ["v1", "v2", "v3", "v4", "v5", "v6"])
    }
}
