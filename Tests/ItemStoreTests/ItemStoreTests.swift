import Crypto
import Foundation
import KeychainModel
import Testing

@testable import ItemStore

@Suite("ItemStore: storing, matching, opening", .timeLimit(.minutes(10)))
struct ItemStoreBehaviourTests {
    @Test func insertSelectOpenRoundTrip() throws {
        try withStore { store, _, _ in
            let item = genericPassword(account: "alice", label: "Mail", persistentRef: nil)
            let stored = try store.write { try $0.insert(item) }
            #expect(stored.persistentRef.count == 16)
            #expect(stored.protection == .whenUnlocked)
            try store.write { try $0.insert(genericPassword(account: "bob")) }

            let found = try store.read { try $0.select(byAccount("alice")) }
            #expect(found.map(\.rowID) == [stored.rowID])
            #expect(found.first?.persistentRef == stored.persistentRef)
            let (attributes, secret) = try store.read { reader in
                (try reader.openAttributes(found[0]), try reader.openSecret(found[0]))
            }
            #expect(attributes == item.attributes)
            #expect(secret == bytes("secret"))
            #expect(try store.read { try $0.count(of: .genericPassword) } == 2)
            #expect(try store.read { try $0.count(of: .internetPassword) } == 0)
        }
    }

    @Test func secretAbsentEmptyAndLargeAreDistinct() throws {
        try withStore { store, _, _ in
            let large = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let rows = try store.write { writer in
                [
                    try writer.insert(genericPassword(account: "none", secret: nil)),
                    try writer.insert(genericPassword(account: "empty", secret: Data())),
                    try writer.insert(genericPassword(account: "large", secret: large)),
                ]
            }
            let secrets = try store.read { reader in try rows.map { try reader.openSecret($0) } }
            #expect(secrets[0] == nil)
            #expect(secrets[1] == Data())
            #expect(secrets[2] == large)
            // Padding hides short lengths: absent and empty secrets seal to the same size.
            #expect(rows[0].sealed.secret.count == rows[1].sealed.secret.count)
        }
    }

    @Test func selectionFiltersAreAndedAndOrdered() throws {
        try withStore { store, _, _ in
            let rows = try store.write { writer in
                try [
                    writer.insert(genericPassword(account: "a", group: "g1")),
                    writer.insert(genericPassword(account: "b", group: "g2")),
                    writer.insert(genericPassword(account: "c", group: "g3")),
                    writer.insert(genericPassword(account: "a", service: "other", group: "g1")),
                ]
            }
            try store.read { reader in
                let all = try reader.select(ItemSelection(itemClass: .genericPassword))
                #expect(all.map(\.rowID) == rows.map(\.rowID))
                let g12 = try reader.select(
                    ItemSelection(itemClass: .genericPassword, anyOf: ["agrp": [bytes("g1"), bytes("g2")]]))
                #expect(g12.map(\.rowID) == [rows[0].rowID, rows[1].rowID, rows[3].rowID])
                let accountA = try reader.select(
                    ItemSelection(itemClass: .genericPassword, equal: ["acct": bytes("a")], anyOf: ["agrp": [bytes("g1")]]))
                #expect(accountA.count == 2)
                let limited = try reader.select(
                    ItemSelection(itemClass: .genericPassword, anyOf: ["agrp": [bytes("g1"), bytes("g2")]], limit: 1))
                #expect(limited.map(\.rowID) == [rows[0].rowID])
                #expect(try reader.select(ItemSelection(itemClass: .genericPassword, limit: 0)).isEmpty)
                #expect(try reader.select(ItemSelection(itemClass: .genericPassword, anyOf: ["agrp": []])).isEmpty)
                // Matching is byte-exact (case-sensitive).
                #expect(try reader.select(byAccount("A", group: "g1")).isEmpty)
                // A value matches only the attribute it was indexed for.
                #expect(
                    try reader.select(ItemSelection(itemClass: .genericPassword, equal: ["svce": bytes("a")])).isEmpty)
                let byRef = try reader.select(
                    ItemSelection(itemClass: .genericPassword, persistentRef: rows[2].persistentRef))
                #expect(byRef.map(\.rowID) == [rows[2].rowID])
                let byRow = try reader.select(ItemSelection(itemClass: .genericPassword, rowID: rows[1].rowID))
                #expect(byRow.map(\.persistentRef) == [rows[1].persistentRef])
                let byUnique = try reader.select(
                    ItemSelection(itemClass: .genericPassword, uniqueKey: genericPassword(account: "c", group: "g3").uniqueKey))
                #expect(byUnique.map(\.rowID) == [rows[2].rowID])
            }
        }
    }

    /// Blind indexes give the planner no statistics; the fixed ones in sqlite_stat1 make it look up the
    /// account instead of scanning every item of the access group — on readers, on the writer, and on the
    /// connection that ran the migration.
    @Test(arguments: [false, true])
    func lookupsUseTheMostSelectiveIndex(onWriter: Bool) throws {
        try withStore { store, _, _ in
            let byAccountPlan = try store.queryPlan(byAccount("a"), onWriter: onWriter)
            #expect(byAccountPlan.contains("genp_i_acct"), "\(byAccountPlan)")
            let byServicePlan = try store.queryPlan(
                ItemSelection(itemClass: .genericPassword, equal: ["svce": bytes("s"), "sync": Data([0])], anyOf: ["agrp": [bytes("g")]]),
                onWriter: onWriter)
            #expect(byServicePlan.contains("genp_i_svce"), "\(byServicePlan)")
            let byServerPlan = try store.queryPlan(
                ItemSelection(
                    itemClass: .internetPassword, equal: ["srvr": bytes("h"), "ptcl": bytes("htps"), "port": Data([1])],
                    anyOf: ["agrp": [bytes("g"), bytes("h")]]),
                onWriter: onWriter)
            #expect(byServerPlan.contains("inet_i_srvr"), "\(byServerPlan)")
            let byRefPlan = try store.queryPlan(
                ItemSelection(itemClass: .genericPassword, anyOf: ["agrp": [bytes("g")]], persistentRef: Data(count: 16)),
                onWriter: onWriter)
            #expect(byRefPlan.contains("sqlite_autoindex_genp_1"), "\(byRefPlan)")
            // v5: a find by label uses the label's index, in every class.
            for (itemClass, index) in [
                (ItemClass.genericPassword, "genp_i_labl"), (.internetPassword, "inet_i_labl"), (.key, "keys_i_labl"), (.certificate, "cert_i_labl"),
            ] {
                let byLabelPlan = try store.queryPlan(
                    ItemSelection(itemClass: itemClass, equal: ["labl": bytes("label")], anyOf: ["agrp": [bytes("g"), bytes("h")]]),
                    onWriter: onWriter)
                #expect(byLabelPlan.contains(index), "\(byLabelPlan)")
            }
        }
    }

    @Test func internetPasswordsHaveTheirOwnTableAndColumns() throws {
        try withStore { store, _, _ in
            let item = NewItem(
                itemClass: .internetPassword, protection: .afterFirstUnlock, attributes: bytes("inet-attrs"),
                secret: bytes("pw"),
                indexValues: [
                    "acct": bytes("u"), "srvr": bytes("example.com"), "ptcl": bytes("htps"),
                    "port": Data([0xBB, 0x01, 0, 0]), "path": bytes("/"), "agrp": bytes("g"),
                ],
                uniqueKey: bytes("u|example.com|htps|443|/|g"))
            let stored = try store.write { try $0.insert(item) }
            // Same uniqueness bytes in another class are not a duplicate.
            try store.write {
                var generic = genericPassword(account: "u")
                generic.uniqueKey = item.uniqueKey
                try $0.insert(generic)
            }
            let found = try store.read {
                try $0.select(ItemSelection(itemClass: .internetPassword, equal: ["srvr": bytes("example.com"), "port": Data([0xBB, 0x01, 0, 0])]))
            }
            #expect(found.map(\.rowID) == [stored.rowID])
            #expect(found.first?.itemClass == .internetPassword)
            #expect(try store.read { try $0.openSecret(found[0]) } == bytes("pw"))
        }
    }

    @Test func unknownAttributeCodesAndClassesThrow() throws {
        try withStore { store, _, _ in
            #expect(throws: ItemStoreError.unknownAttribute(code: "svce", itemClass: .internetPassword)) {
                try store.read { try $0.select(ItemSelection(itemClass: .internetPassword, equal: ["svce": Data()])) }
            }
            #expect(throws: ItemStoreError.unknownAttribute(code: "v_Data", itemClass: .genericPassword)) {
                try store.read { try $0.select(ItemSelection(itemClass: .genericPassword, anyOf: ["v_Data": [Data()]])) }
            }
            #expect(throws: ItemStoreError.unknownAttribute(code: "srvr", itemClass: .genericPassword)) {
                var item = genericPassword(account: "x")
                item.indexValues["srvr"] = bytes("host")
                try store.write { try $0.insert(item) }
            }
            #expect(throws: ItemStoreError.unsupportedClass(.identity)) {
                try store.read { try $0.select(ItemSelection(itemClass: .identity)) }
            }
            #expect(throws: ItemStoreError.invalidArgument("a persistent reference is 16 bytes")) {
                try store.write { try $0.insert(genericPassword(account: "x", persistentRef: Data(count: 8))) }
            }
            #expect(ItemStore.indexedAttributes(for: .genericPassword).count == 24)
            #expect(ItemStore.indexedAttributes(for: .internetPassword).contains("srvr"))
            #expect(!ItemStore.indexedAttributes(for: .internetPassword).contains("svce"))
            #expect(ItemStore.indexedAttributes(for: .key).isSuperset(of: ["kcls", "klbl", "atag", "type", "bsiz", "agrp"]))
            #expect(ItemStore.indexedAttributes(for: .certificate).isSuperset(of: ["ctyp", "issr", "slnr", "pkhh", "labl", "agrp"]))
            #expect(ItemStore.indexedAttributes(for: .identity).isEmpty)
            #expect(ItemStore.supports(.key) && ItemStore.supports(.certificate))
            #expect(!ItemStore.supports(.identity))
        }
    }

    @Test func duplicateUniqueKeyIsRejectedAndTheTransactionGoesOn() throws {
        try withStore { store, _, _ in
            try store.write { try $0.insert(genericPassword(account: "alice")) }
            // Differs only in attributes outside the uniqueness bytes (label, protection, secret).
            let twin = genericPassword(account: "alice", secret: bytes("other"), protection: .always, label: "L")
            #expect(throws: ItemStoreError.duplicateItem) { try store.write { try $0.insert(twin) } }
            // Inside one transaction: the failed insert is undone, the rest commits.
            try store.write { writer in
                #expect(throws: ItemStoreError.duplicateItem) { try writer.insert(twin) }
                try writer.insert(genericPassword(account: "carol"))
            }
            #expect(try store.read { try $0.count(of: .genericPassword) } == 2)
        }
    }

    @Test func givenPersistentRefIsKeptAndMustBeUnique() throws {
        try withStore { store, _, _ in
            let ref = Data((1...16).map { UInt8($0) })
            let stored = try store.write { try $0.insert(genericPassword(account: "a", persistentRef: ref)) }
            #expect(stored.persistentRef == ref)
            #expect(throws: ItemStoreError.duplicatePersistentRef) {
                try store.write { try $0.insert(genericPassword(account: "b", persistentRef: ref)) }
            }
        }
    }

    @Test func replaceKeepsRowAndPersistentRef() throws {
        try withStore { store, _, _ in
            let (original, other) = try store.write { writer in
                (try writer.insert(genericPassword(account: "alice")), try writer.insert(genericPassword(account: "bob")))
            }
            let updated = genericPassword(
                account: "alice2", secret: bytes("new secret"), protection: .afterFirstUnlockThisDeviceOnly)
            let replaced = try store.write { try $0.replace(rowID: original.rowID, with: updated) }
            #expect(replaced.rowID == original.rowID)
            #expect(replaced.persistentRef == original.persistentRef)
            #expect(replaced.protection == .afterFirstUnlockThisDeviceOnly)

            try store.read { reader in
                #expect(try reader.select(byAccount("alice")).isEmpty)
                let found = try reader.select(byAccount("alice2"))
                #expect(found.map(\.rowID) == [original.rowID])
                #expect(found.first?.persistentRef == original.persistentRef)
                #expect(try reader.openSecret(found[0]) == bytes("new secret"))
                #expect(try reader.openAttributes(found[0]) == updated.attributes)
                #expect(try reader.count(of: .genericPassword) == 2)
            }
            // Replacing into another row's uniqueness bytes is a duplicate; nothing changes.
            #expect(throws: ItemStoreError.duplicateItem) {
                try store.write { try $0.replace(rowID: original.rowID, with: genericPassword(account: "bob")) }
            }
            #expect(throws: ItemStoreError.notFound(rowID: 999)) {
                try store.write { try $0.replace(rowID: 999, with: updated) }
            }
            #expect(throws: ItemStoreError.invalidArgument("replace keeps the row's persistent reference")) {
                try store.write { try $0.replace(rowID: other.rowID, with: genericPassword(account: "bob", persistentRef: original.persistentRef)) }
            }
            // The same persistent ref given explicitly is fine.
            try store.write {
                try $0.replace(rowID: other.rowID, with: genericPassword(account: "bob", persistentRef: other.persistentRef))
            }
        }
    }

    @Test func deleteRemovesRowsAndWorksWhileLocked() throws {
        try withStore { store, keyring, _ in
            let rows = try store.write { writer in
                try (0..<4).map { try writer.insert(genericPassword(account: "a\($0)")) }
            }
            keyring.lock(Set(ProtectionClass.allCases))
            keyring.resetCounts()
            let deleted = try store.write { writer in
                let matched = try writer.select(byAccount("a1"))
                return try writer.delete(matched) + writer.delete(rowIDs: [rows[2].rowID, rows[2].rowID, 12345], in: .genericPassword)
            }
            #expect(deleted == 2)
            #expect(keyring.counts.unwrap == 0 && keyring.counts.metadata == 0)
            #expect(
                try store.read { try $0.select(ItemSelection(itemClass: .genericPassword)) }.map(\.rowID)
                    == [rows[0].rowID, rows[3].rowID])
        }
    }

    @Test func aThrowingWriteRollsBackEverything() throws {
        try withStore { store, _, _ in
            let kept = try store.write { try $0.insert(genericPassword(account: "kept")) }
            #expect(throws: TestError()) {
                try store.write { writer in
                    try writer.insert(genericPassword(account: "a"))
                    try writer.replace(rowID: kept.rowID, with: genericPassword(account: "changed"))
                    _ = try writer.delete(rowIDs: [kept.rowID], in: .genericPassword)
                    throw TestError()
                }
            }
            try store.read { reader in
                let all = try reader.select(ItemSelection(itemClass: .genericPassword))
                #expect(all.map(\.rowID) == [kept.rowID])
                #expect(try reader.select(byAccount("kept")).count == 1)
            }
        }
    }

    /// Each selection is its own snapshot (no `BEGIN … COMMIT` around a read's body): a statement
    /// run after another thread's commit sees it, even on the same reader connection.
    @Test func eachStatementOfAReadSeesTheLatestCommit() throws {
        try withStore { store, _, _ in
            try store.write { try $0.insert(genericPassword(account: "a")) }
            let (before, after) = try store.read { reader in
                let before = try reader.count(of: .genericPassword)
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    _ = try? store.write { try $0.insert(genericPassword(account: "b")) }
                    done.signal()
                }
                done.wait()
                return (before, try reader.count(of: .genericPassword))
            }
            #expect(before == 1)
            #expect(after == 2)
            #expect(try store.read { try $0.select(ItemSelection(itemClass: .genericPassword)).count } == 2)
        }
    }

    @Test func dataSurvivesReopening() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let keyring = FakeKeyring()
        var ref = Data()
        do {
            let store = try ItemStore(databaseURL: folder.database, keyring: keyring)
            ref = try store.write { try $0.insert(genericPassword(account: "a")) }.persistentRef
        }
        let store = try ItemStore(databaseURL: folder.database, keyring: keyring)
        let found = try store.read { try $0.select(ItemSelection(itemClass: .genericPassword, persistentRef: ref)) }
        #expect(found.count == 1)
        #expect(try store.read { try $0.openSecret(found[0]) } == bytes("secret"))
    }

    /// A keychain made by v1 (full attribute indexes) opens as v2 (partial ones): its items are still
    /// found, through the same indexes, and an item without an attribute has no entry in that index.
    @Test func aVersion1DatabaseMigratesToPartialIndexes() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try ItemStore.migrateDatabase(at: folder.database, upTo: "v1")
        #expect(try ItemStore.indexSQL("genp_i_type", inDatabaseAt: folder.database)?.contains("WHERE") == false)
        // Opening with this version migrates.
        let store = try ItemStore(databaseURL: folder.database, keyring: FakeKeyring())
        try store.write { try $0.insert(genericPassword(account: "a")) }
        for name in ["genp_i_acct", "genp_i_type", "inet_i_srvr"] {
            #expect(try ItemStore.indexSQL(name, inDatabaseAt: folder.database)?.hasSuffix("IS NOT NULL") == true, "\(name)")
        }
        #expect(try store.read { try $0.select(byAccount("a")) }.count == 1)
        #expect(try store.queryPlan(byAccount("a")).contains("genp_i_acct"))
        let byType = ItemSelection(itemClass: .genericPassword, equal: ["type": bytes("t")])
        #expect(try store.queryPlan(byType).contains("genp_i_type"))
    }
}

@Suite("ItemStore: keyring use", .timeLimit(.minutes(10)))
struct ItemStoreKeyringTests {
    @Test func attributeOnlyOpenNeverUnwrapsTheItemKey() throws {
        try withStore { store, keyring, _ in
            try store.write { writer in
                for index in 0..<5 { try writer.insert(genericPassword(account: "a\(index)")) }
            }
            keyring.resetCounts()
            let attributes = try store.read { reader in
                try reader.select(ItemSelection(itemClass: .genericPassword)).map { try reader.openAttributes($0) }
            }
            #expect(attributes.count == 5)
            #expect(keyring.counts.unwrap == 0)
            #expect(keyring.counts.metadata == 5)
            keyring.resetCounts()
            _ = try store.read { reader in try reader.openSecret(try reader.select(byAccount("a1"))[0]) }
            #expect(keyring.counts.unwrap == 1)
        }
    }

    @Test func selectNeedsNoClassKey() throws {
        try withStore { store, keyring, _ in
            try store.write { try $0.insert(genericPassword(account: "a")) }
            keyring.lock(Set(ProtectionClass.allCases))
            keyring.resetCounts()
            let found = try store.read { try $0.select(byAccount("a")) }
            #expect(found.count == 1)
            #expect(keyring.counts == FakeKeyring.Counts(index: 1))
        }
    }

    @Test func keyringErrorsPropagateUnchanged() throws {
        try withStore { store, keyring, _ in
            try store.write { try $0.insert(genericPassword(account: "a", protection: .whenUnlocked)) }
            try store.write { try $0.insert(genericPassword(account: "d", protection: .always)) }
            keyring.lock([.whenUnlocked])
            let a = try store.read { try $0.select(byAccount("a"))[0] }
            #expect(throws: FakeKeyringError.locked(.whenUnlocked)) { try store.read { try $0.openSecret(a) } }
            #expect(throws: FakeKeyringError.locked(.whenUnlocked)) { try store.read { try $0.openAttributes(a) } }
            #expect(throws: FakeKeyringError.locked(.whenUnlocked)) {
                try store.write { try $0.insert(genericPassword(account: "b", protection: .whenUnlocked)) }
            }
            #expect(throws: FakeKeyringError.locked(.whenUnlocked)) {
                try store.write { try $0.replace(rowID: a.rowID, with: genericPassword(account: "a", protection: .whenUnlocked)) }
            }
            // Other classes still work while A is locked.
            let d = try store.read { try $0.select(byAccount("d"))[0] }
            #expect(try store.read { try $0.openSecret(d) } == bytes("secret"))
            #expect(try store.read { try $0.count(of: .genericPassword) } == 2)

            keyring.lock([])
            keyring.setIndexKeyAvailable(false)
            #expect(throws: FakeKeyringError.noIndexKey) { try store.read { try $0.select(byAccount("a")) } }
            #expect(throws: FakeKeyringError.noIndexKey) { try store.write { try $0.insert(genericPassword(account: "z")) } }
            // Row tags are checked as rows are read, so even a selection without filters needs the index key.
            #expect(throws: FakeKeyringError.noIndexKey) { try store.read { try $0.select(ItemSelection(itemClass: .genericPassword)) } }
            keyring.setIndexKeyAvailable(true)
            #expect(try store.read { try $0.select(ItemSelection(itemClass: .genericPassword)) }.count == 2)
        }
    }
}
