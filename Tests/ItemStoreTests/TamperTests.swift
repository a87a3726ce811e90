import Crypto
import Foundation
import KeychainModel
import Testing

@testable import ItemStore

/// A row's sealed data must authenticate; a change anywhere is `.corrupt(rowID:)` for that row only.
@Suite("ItemStore: tamper detection", .timeLimit(.minutes(10)))
struct TamperTests {
    /// Opens both parts of every row; returns the rows that failed as corrupt (other errors are rethrown).
    private func corruptRows(_ store: ItemStore) throws -> [Int64] {
        try store.read { reader in
            var corrupt: [Int64] = []
            for item in try reader.select(ItemSelection(itemClass: .genericPassword)) {
                var failed = false
                do { _ = try reader.openAttributes(item) } catch ItemStoreError.corrupt(let rowID) {
                    #expect(rowID == item.rowID)
                    failed = true
                }
                do { _ = try reader.openSecret(item) } catch ItemStoreError.corrupt(let rowID) {
                    #expect(rowID == item.rowID)
                    failed = true
                }
                if failed { corrupt.append(item.rowID) }
            }
            return corrupt
        }
    }

    @Test(arguments: ["attrs", "wkey", "secret", "tag", "ukey", "pref", "i_acct", "i_agrp"])
    func everySingleByteFlipIsDetected(column: String) throws {
        try withStore { store, _, _ in
            let rows = try store.write { writer in
                try (0..<3).map { try writer.insert(genericPassword(account: "a\($0)", label: "label\($0)")) }
            }
            let target = rows[1].rowID
            let original = try #require(try store.rawBlob(column, of: .genericPassword, rowID: target))
            #expect(try corruptRows(store).isEmpty)
            for position in original.indices {
                var flipped = original
                flipped[position] ^= 0x01
                try store.setRawBlob(column, of: .genericPassword, rowID: target, to: flipped)
                #expect(try corruptRows(store) == [target], "flip at byte \(position) of \(column) went unnoticed")
            }
            // Truncation and removal of an index column are changes too (pref's length is a CHECK constraint).
            if column != "pref" {
                try store.setRawBlob(column, of: .genericPassword, rowID: target, to: original.dropLast())
                #expect(try corruptRows(store) == [target])
            }
            if column.hasPrefix("i_") {
                try store.setRawBlob(column, of: .genericPassword, rowID: target, to: nil)
                #expect(try corruptRows(store) == [target])
            }
            try store.setRawBlob(column, of: .genericPassword, rowID: target, to: original)
            #expect(try corruptRows(store).isEmpty)
        }
    }

    @Test(arguments: ["attrs", "wkey", "secret", "tag"])
    func swappingTwoRowsBlobsIsDetected(column: String) throws {
        try withStore { store, _, _ in
            let rows = try store.write { writer in
                try (0..<3).map { try writer.insert(genericPassword(account: "a\($0)")) }
            }
            let first = try #require(try store.rawBlob(column, of: .genericPassword, rowID: rows[0].rowID))
            let second = try #require(try store.rawBlob(column, of: .genericPassword, rowID: rows[1].rowID))
            try store.setRawBlob(column, of: .genericPassword, rowID: rows[0].rowID, to: second)
            try store.setRawBlob(column, of: .genericPassword, rowID: rows[1].rowID, to: first)
            #expect(try corruptRows(store) == [rows[0].rowID, rows[1].rowID])
        }
    }

    /// Even someone who holds the index key and so can recompute row tags cannot move a sealed part:
    /// the GCM AAD (class, protection class, persistent reference) and the item keys catch it.
    @Test(arguments: ["attrs", "wkey", "secret"])
    func movedCiphertextFailsEvenWithAValidRowTag(column: String) throws {
        try withStore { store, keyring, _ in
            let rows = try store.write { writer in
                try (0..<2).map { try writer.insert(genericPassword(account: "a\($0)", protection: .always)) }
            }
            let first = try #require(try store.rawBlob(column, of: .genericPassword, rowID: rows[0].rowID))
            let second = try #require(try store.rawBlob(column, of: .genericPassword, rowID: rows[1].rowID))
            try store.setRawBlob(column, of: .genericPassword, rowID: rows[0].rowID, to: second)
            try store.setRawBlob(column, of: .genericPassword, rowID: rows[1].rowID, to: first)
            try retag(store, keyring: keyring)
            let corrupt = try corruptRows(store)
            #expect(corrupt == [rows[0].rowID, rows[1].rowID])
        }
    }

    @Test func changingTheProtectionClassColumnIsDetected() throws {
        try withStore { store, keyring, _ in
            let row = try store.write { try $0.insert(genericPassword(account: "a", protection: .always)) }
            // keyclass is an INTEGER column: rewrite it through a replace of the raw value.
            try store.withWriterConnection { db in
                try db.execute(sql: "UPDATE genp SET keyclass = 11 WHERE rowid = ?", arguments: [row.rowID])
            }
            #expect(try corruptRows(store) == [row.rowID])
            // With a valid tag, the attributes still fail (other metadata key, and the AAD binds the class);
            // the secret fails in the keyring, whose unwrap under the wrong class key throws its own error.
            try retag(store, keyring: keyring)
            let item = try store.read { try $0.select(ItemSelection(itemClass: .genericPassword))[0] }
            #expect(item.protection == .alwaysThisDeviceOnly)
            #expect(throws: ItemStoreError.corrupt(rowID: row.rowID)) { try store.read { try $0.openAttributes(item) } }
            #expect(throws: (any Error).self) { try store.read { try $0.openSecret(item) } }
        }
    }

    /// Recomputes every row tag, as an attacker holding the index key could.
    private func retag(_ store: ItemStore, keyring: FakeKeyring) throws {
        let table = try Schema.table(.genericPassword)
        let indexer = ItemCrypto.Indexer(indexKey: keyring.index, itemClass: .genericPassword)
        let items = try store.read { try $0.select(ItemSelection(itemClass: .genericPassword)) }
        for item in items {
            func column(_ name: String) throws -> Data? { try store.rawBlob(name, of: .genericPassword, rowID: item.rowID) }
            let sealed = SealedRow(
                uniqueDigest: try column("ukey") ?? Data(), wrappedKey: try column("wkey") ?? Data(),
                attributes: try column("attrs") ?? Data(), secret: try column("secret") ?? Data(), rowTag: Data(),
                indexes: try table.codes.map { try column(TableSchema.column($0)) })
            let tag = indexer.rowTag(
                protection: item.protection, persistentRef: item.persistentRef, sealed: sealed, codes: table.codes)
            try store.setRawBlob("tag", of: .genericPassword, rowID: item.rowID, to: tag)
        }
    }
}

@Suite("ItemStore: at rest", .timeLimit(.minutes(10)))
struct AtRestTests {
    /// Searches `haystack` for `needle`.
    private func contains(_ haystack: Data, _ needle: Data) -> Bool {
        haystack.range(of: needle) != nil
    }

    @Test func noValueAppearsInTheDatabaseWalOrShm() throws {
        try withStore { store, _, folder in
            let markers = [
                "ACCOUNT-MARKER-7f3a", "SERVICE-MARKER-19c2", "GROUP-MARKER-5d0e", "LABEL-MARKER-a4b1",
                "SECRET-MARKER-e6d4", "ATTRS-MARKER-33aa", "UNIQUE-MARKER-c0de",
            ]
            try store.write { writer in
                for index in 0..<20 {
                    var item = genericPassword(
                        account: "\(markers[0])\(index)", service: markers[1], group: markers[2],
                        secret: bytes("\(markers[4])\(index)"), label: markers[3])
                    item.attributes = bytes("\(markers[5])\(index)")
                    item.uniqueKey = bytes("\(markers[6])\(index)")
                    try writer.insert(item)
                }
            }
            // A replaced row must not leave its old values behind either.
            let first = try store.read { try $0.select(ItemSelection(itemClass: .genericPassword, limit: 1))[0] }
            try store.write { try $0.replace(rowID: first.rowID, with: genericPassword(account: "\(markers[0])new", secret: bytes("\(markers[4])new"))) }

            func check(_ when: String) throws {
                let files = ["keychain.db", "keychain.db-wal", "keychain.db-shm"]
                var sawData = false
                for name in files {
                    let url = folder.url.appendingPathComponent(name)
                    guard let data = FileManager.default.contents(atPath: url.path) else { continue }
                    sawData = sawData || !data.isEmpty
                    for marker in markers {
                        #expect(!contains(data, bytes(marker)), "\(marker) in \(name) (\(when))")
                        // The stand-in canonical bytes of short values (the group, the service) are plain UTF-8 too.
                    }
                }
                #expect(sawData)
            }
            try check("before checkpoint")
            try store.checkpoint()
            try check("after checkpoint")
        }
    }

    @Test func deletedItemsLeaveNoSealedDataInTheFile() throws {
        try withStore { store, _, folder in
            let rows = try store.write { writer in
                try (0..<20).map { try writer.insert(genericPassword(account: "a\($0)", secret: Data(repeating: 0x42, count: 600))) }
            }
            let victim = rows[7]
            try store.checkpoint()
            let before = try #require(FileManager.default.contents(atPath: folder.database.path))
            #expect(contains(before, victim.sealed.wrappedKey) && contains(before, victim.sealed.secret))
            try store.write { try $0.delete([victim]) }
            try store.checkpoint()  // TRUNCATE: the WAL is emptied too
            let after = try #require(FileManager.default.contents(atPath: folder.database.path))
            for part in [victim.sealed.wrappedKey, victim.sealed.secret, victim.sealed.attributes, victim.sealed.rowTag] {
                #expect(!contains(after, part))
            }
            let wal = FileManager.default.contents(atPath: folder.database.path + "-wal") ?? Data()
            #expect(wal.isEmpty)
        }
    }

    @Test func databaseFilesAreOwnerOnly() throws {
        try withStore { store, _, folder in
            try store.write { try $0.insert(genericPassword(account: "a")) }
            _ = try store.read { try $0.select(ItemSelection(itemClass: .genericPassword)) }
            for name in ["keychain.db", "keychain.db-wal", "keychain.db-shm"] {
                let path = folder.url.appendingPathComponent(name).path
                let attributes = try FileManager.default.attributesOfItem(atPath: path)
                let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
                #expect(mode == 0o600, "\(name) has mode \(String(mode ?? -1, radix: 8))")
            }
        }
    }

    @Test func walAndFullSynchronousAreOn() throws {
        try withStore { store, _, _ in
            let journal = try store.writerPragma("journal_mode")
            let synchronous = try store.writerPragma("synchronous")
            let busyTimeout = try store.writerPragma("busy_timeout")
            #expect(journal == "wal")
            #expect(synchronous == "2")  // FULL
            #expect(busyTimeout == "5000")
        }
    }

    @Test func openingFailsCleanlyWithoutTheFolder() throws {
        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/keychain.db")
        #expect(throws: ItemStoreError.self) { try ItemStore(databaseURL: missing, keyring: FakeKeyring()) }
    }
}
