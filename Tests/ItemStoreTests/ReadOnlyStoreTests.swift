import Foundation
import KeychainModel
import Testing

@testable import ItemStore

/// A store opened read-only (``ItemStore/Options/readOnly``, what a read-only folder or file does): reads
/// work, writes are refused before anything is written, no file is created, the schema is not migrated.
@Suite("ItemStore: read-only", .timeLimit(.minutes(10)))
struct ReadOnlyStoreTests {
    private static var readOnly: ItemStore.Options {
        var options = ItemStore.Options()
        options.readOnly = true
        return options
    }

    private static func names(_ folder: TempFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
    }

    @Test func withoutWriteAheadLogReadsImmutablyAndRefusesWrites() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let keyring = FakeKeyring()
        do {
            let store = try ItemStore(databaseURL: folder.database, keyring: keyring)
            try store.write { try $0.insert(genericPassword(account: "alice")) }
            try store.checkpoint()
        }
        // The log files go with the last connection once the log is checkpointed and truncated.
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.database.path + suffix) }
        let store = try ItemStore(databaseURL: folder.database, keyring: keyring, options: Self.readOnly)
        #expect(store.isReadOnly)
        #expect(store.readers.mode == .immutable)
        #expect(try store.read { try $0.select(byAccount("alice")) }.count == 1)
        #expect(try store.bytesInUse() > 0)
        #expect(throws: ItemStoreError.self) { try store.write { try $0.insert(genericPassword(account: "bob")) } }
        do {
            try store.write { _ in Issue.record("the body of a read-only write ran") }
        } catch let error as ItemStoreError {
            guard case .readOnly(let reason) = error else { Issue.record("unexpected \(error)"); return }
            #expect(reason.contains("read-only"))
        }
        #expect(try Self.names(folder) == [folder.database.lastPathComponent])
    }

    @Test func withWriteAheadLogReadsItsChanges() throws {
        try withStore { writable, keyring, folder in
            try writable.write { try $0.insert(genericPassword(account: "alice")) }
            let store = try ItemStore(databaseURL: folder.database, keyring: keyring, options: Self.readOnly)
            #expect(store.readers.mode == .readOnly)
            // A change the writable store commits later is seen too: the log is read through its -shm.
            try writable.write { try $0.insert(genericPassword(account: "bob")) }
            #expect(try store.read { try $0.select(byAccount("bob")) }.count == 1)
        }
    }

    /// An older schema cannot be migrated read-only: refused with a clear error rather than misread.
    @Test func anOlderSchemaIsRefused() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        try ItemStore.migrateDatabase(at: folder.database, upTo: "v1")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: folder.database.path + suffix) }
        #expect {
            _ = try ItemStore(databaseURL: folder.database, keyring: FakeKeyring(), options: Self.readOnly)
        } throws: { error in
            guard case .readOnly(let reason) = error as? ItemStoreError else { return false }
            return reason.contains("older schema")
        }
    }

    @Test func aMissingDatabaseIsNotCreated() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        #expect(throws: ItemStoreError.self) {
            _ = try ItemStore(databaseURL: folder.database, keyring: FakeKeyring(), options: Self.readOnly)
        }
        #expect(try Self.names(folder).isEmpty)
    }

    @Test func immutableURIEscapesWhatAURIPathCannotHold() {
        #expect(ReaderConnection.immutableURI("/tmp/a b/k?#%.db") == "file:/tmp/a b/k%3F%23%25.db?immutable=1")
    }
}
