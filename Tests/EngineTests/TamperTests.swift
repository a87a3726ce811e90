import Foundation
import GRDB
import KeychainModel
import Query
import Testing

/// Corrupt or tampered rows are detected, skipped and never returned with wrong contents (§10.7).
@Suite("Tampered and corrupt rows", .timeLimit(.minutes(10)))
struct TamperTests {
    private func rawDatabase(_ keychain: TestKeychain) throws -> DatabaseQueue {
        try DatabaseQueue(path: keychain.folder.databaseURL.path)
    }

    private func seed(_ keychain: TestKeychain) throws {
        for account in ["a", "b", "c"] {
            _ = try keychain.add(genp("svc", account, ["v_Data": secretData("secret-\(account)"), "labl": .string("label-\(account)")]))
        }
    }

    private func checkOthersStillRead(_ keychain: TestKeychain, except broken: String) throws {
        for account in ["a", "b", "c"] where account != broken {
            #expect(try keychain.copy(genp("svc", account, ["r_Data": true]))?.dataValue == Data("secret-\(account)".utf8))
        }
    }

    @Test(arguments: ["attrs", "secret", "wkey", "tag", "pref", "keyclass"])
    func everySingleByteFlipIsDetected(column: String) throws {
        let keychain = TestKeychain()
        try seed(keychain)
        let database = try rawDatabase(keychain)
        let original = try #require(try database.read { try Row.fetchOne($0, sql: "SELECT * FROM genp WHERE rowid = 1") })
        let columns = Array(original.columnNames)
        let value: DatabaseValue = original[column]
        let bytes: [UInt8]
        switch value.storage {
        case .blob(let data): bytes = Array(data)
        case .int64(let number): bytes = withUnsafeBytes(of: number.littleEndian) { Array($0) }.filter { _ in true }.prefix(1).map { $0 }
        default: Issue.record("unexpected column type"); return
        }
        for position in bytes.indices {
            try database.write { db in
                var flipped = bytes
                flipped[position] ^= 0x01
                let replacement: DatabaseValue =
                    if case .int64(let number) = value.storage {
                        (number ^ 0x01).databaseValue
                    } else {
                        Data(flipped).databaseValue
                    }
                try db.execute(sql: "UPDATE genp SET \(column) = ? WHERE rowid = 1", arguments: [replacement])
            }
            let status = keychain.status { _ = try $0.copy(genp("svc", "a", ["r_Data": true])) }
            #expect(status == .itemNotFound, "flip at byte \(position) of \(column) was not detected")
            try checkOthersStillRead(keychain, except: "a")
            // Put the original row back (the engine deletes undecryptable rows, as Apple does).
            try database.write { db in
                try db.execute(sql: "DELETE FROM genp WHERE rowid = 1")
                let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                try db.execute(
                    sql: "INSERT INTO genp (\(columns.joined(separator: ", "))) VALUES (\(marks))",
                    arguments: StatementArguments(columns.map { original[$0] as DatabaseValue }))
            }
        }
        #expect(try keychain.copy(genp("svc", "a", ["r_Data": true]))?.dataValue == Data("secret-a".utf8))
    }

    /// Edits of the file itself can break what the table's CHECK constraints guarantee (a protection
    /// class that does not exist, a persistent reference of another length, a blob where a number
    /// belongs). Such a row is skipped like any corrupt row (§10.7); the other items still read.
    @Test(arguments: [
        ("keyclass", 99.databaseValue), ("keyclass", Data([1]).databaseValue),
        ("pref", Data(count: 15).databaseValue), ("wkey", 5.databaseValue), ("tag", 7.databaseValue),
    ])
    func rowsBreakingTheSchemasConstraintsAreSkipped(column: String, value: DatabaseValue) throws {
        let keychain = TestKeychain()
        try seed(keychain)
        try rawDatabase(keychain).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA ignore_check_constraints = ON")
            try db.execute(sql: "UPDATE genp SET \(column) = ? WHERE rowid = 1", arguments: [value])
        }
        #expect(keychain.status { _ = try $0.copy(genp("svc", "a", ["r_Data": true])) } == .itemNotFound)
        try checkOthersStillRead(keychain, except: "a")
        let everything = try keychain.copy(["class": "genp", "m_Limit": "m_LimitAll", "r_Attributes": true])
        guard case .array(let items)? = everything else {
            Issue.record("expected every other item")
            return
        }
        #expect(items.count == 2)
    }

    @Test(arguments: ["attrs", "secret", "wkey"])
    func swappingTwoRowsSealedPartsIsDetected(column: String) throws {
        let keychain = TestKeychain()
        try seed(keychain)
        try rawDatabase(keychain).write { db in
            let first = try DatabaseValue.fetchOne(db, sql: "SELECT \(column) FROM genp WHERE rowid = 1")!
            let second = try DatabaseValue.fetchOne(db, sql: "SELECT \(column) FROM genp WHERE rowid = 2")!
            try db.execute(sql: "UPDATE genp SET \(column) = ? WHERE rowid = 1", arguments: [second])
            try db.execute(sql: "UPDATE genp SET \(column) = ? WHERE rowid = 2", arguments: [first])
        }
        for account in ["a", "b"] {
            #expect(keychain.status { _ = try $0.copy(genp("svc", account, ["r_Data": true])) } == .itemNotFound)
        }
        #expect(try keychain.copy(genp("svc", "c", ["r_Data": true]))?.dataValue == Data("secret-c".utf8))
    }

    @Test func aBlindIndexPointingAtAnotherRowIsNotTrusted() throws {
        let keychain = TestKeychain()
        try seed(keychain)
        try rawDatabase(keychain).write { db in
            try db.execute(sql: "UPDATE genp SET i_acct = (SELECT i_acct FROM genp WHERE rowid = 2) WHERE rowid = 1")
        }
        // Row 1 now claims account "b" in its index; its sealed attributes say "a": it is skipped.
        let found = try keychain.copy(genp("svc", "b", ["r_Data": true, "m_Limit": "m_LimitAll"]))?.arrayValue
        #expect(found == [secretData("secret-b")])
    }

    @Test func noValueOrSecretIsStoredInPlaintext() throws {
        let keychain = TestKeychain()
        let markers = ["Acct-7f3a91", "Svc-52be0c", "Label-c81d44", "Secret-0d9e6b", "Comment-aa71f2", "Server-93cd10"]
        _ = try keychain.add([
            "class": "genp", "acct": .string(markers[0]), "svce": .string(markers[1]),
            "labl": .string(markers[2]), "v_Data": secretData(markers[3]), "icmt": .string(markers[4]),
        ])
        _ = try keychain.add(["class": "inet", "srvr": .string(markers[5]), "acct": .string(markers[0]), "v_Data": secretData(markers[3])])
        try keychain.update(genp(markers[1], markers[0]), ["v_Data": secretData(markers[3] + "-2")])
        // Every file of the folder, the audit journal's among them.
        let files = (FileManager.default.enumerator(at: keychain.folder.url, includingPropertiesForKeys: [.isRegularFileKey])?.allObjects ?? [])
            .compactMap { $0 as? URL }.filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
        #expect(files.contains { $0.lastPathComponent.hasSuffix("-wal") }, "the test should see the WAL while the keychain is open")
        #expect(files.contains { $0.lastPathComponent.hasPrefix("segment-") }, "the test should see the audit journal")
        for file in files {
            let contents = try Data(contentsOf: file)
            for marker in markers {
                #expect(contents.range(of: Data(marker.utf8)) == nil, "\(marker) found in \(file.lastPathComponent)")
            }
        }
    }
}
