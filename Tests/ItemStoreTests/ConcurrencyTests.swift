import Foundation
import KeychainModel
import Synchronization
import Testing
import TestProcesses

@testable import ItemStore

#if canImport(Glibc)
import Glibc
#endif

/// Several stores (connections) and several processes on one file.
@Suite("ItemStore: concurrency and processes", .timeLimit(.minutes(10)))
struct ConcurrencyTests {
    @Test func storesRacingOnTheSameUniqueKeyAdmitExactlyOne() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let keyring = FakeKeyring()
        let stores = try (0..<2).map { _ in try ItemStore(databaseURL: folder.database, keyring: keyring) }
        struct Outcome { var inserted = 0; var duplicates = 0; var other: [String] = [] }
        for round in 0..<10 {
            let outcome = Mutex(Outcome())
            DispatchQueue.concurrentPerform(iterations: 8) { worker in
                do {
                    try stores[worker % 2].write {
                        try $0.insert(genericPassword(account: "shared-\(round)", secret: bytes("from \(worker)")))
                    }
                    outcome.withLock { $0.inserted += 1 }
                } catch ItemStoreError.duplicateItem {
                    outcome.withLock { $0.duplicates += 1 }
                } catch {
                    outcome.withLock { $0.other.append(String(describing: error)) }
                }
            }
            let result = outcome.withLock { $0 }
            #expect(result.inserted == 1 && result.duplicates == 7 && result.other.isEmpty, "round \(round): \(result.other)")
        }
        #expect(try stores[1].read { try $0.count(of: .genericPassword) } == 10)
    }

    @Test func concurrentWritersAndReadersOnSeveralStores() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let keyring = FakeKeyring()
        let stores = try (0..<3).map { _ in try ItemStore(databaseURL: folder.database, keyring: keyring) }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            let store = stores[worker % 3]
            do {
                for index in 0..<25 {
                    if worker % 2 == 0 {
                        try store.write { try $0.insert(genericPassword(account: "w\(worker)-\(index)")) }
                    } else {
                        // Readers: every row they see opens.
                        try store.read { reader in
                            for item in try reader.select(ItemSelection(itemClass: .genericPassword)) {
                                _ = try reader.openSecret(item)
                            }
                        }
                    }
                }
            } catch {
                failures.withLock { $0.append(String(describing: error)) }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        for store in stores {
            #expect(try store.read { try $0.count(of: .genericPassword) } == 75)
        }
    }

    @Test func storesOpeningANewFileTogetherAllSucceed() throws {
        for _ in 0..<3 {
            let folder = try TempFolder()
            defer { folder.remove() }
            let keyring = FakeKeyring()
            let errors = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { worker in
                do {
                    let store = try ItemStore(databaseURL: folder.database, keyring: keyring)
                    try store.write { try $0.insert(genericPassword(account: "opener-\(worker)")) }
                } catch {
                    errors.withLock { $0.append(String(describing: error)) }
                }
            }
            #expect(errors.withLock { $0 }.isEmpty)
            let store = try ItemStore(databaseURL: folder.database, keyring: keyring)
            #expect(try store.read { try $0.count(of: .genericPassword) } == 4)
        }
    }

    // MARK: Several processes

    private static let seed = Data((0..<32).map { UInt8($0 * 7 & 0xFF) })

    /// Starts this test binary again, running only ``childProcess()`` with `environment`.
    private func startChild(_ environment: [String: String]) throws -> ChildProcess {
        try ChildProcess(
            [
                URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
                "--testing-library", "swift-testing", "--filter", "childProcessEntryPoint",
            ],
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 }, errors: .null)
    }

    @Test func severalProcessesWriteTheSameFile() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        // The parent holds the file open too.
        let store = try ItemStore(databaseURL: folder.database, keyring: FakeKeyring(seed: Self.seed))
        let children = try (0..<3).map { id in
            try startChild(
                [
                    "COFFER_ITEMSTORE_CHILD": "burst", "COFFER_ITEMSTORE_DB": folder.database.path,
                    "COFFER_ITEMSTORE_ID": "\(id)",
                ])
        }
        try store.write { writer in
            for index in 0..<20 { try writer.insert(genericPassword(account: "parent-\(index)")) }
        }
        for child in children {
            #expect(try child.finish().termination.succeeded)
        }
        try store.read { reader in
            // 3 × 30 own items + 1 shared (exactly one child won) + 20 of the parent.
            #expect(try reader.count(of: .genericPassword) == 111)
            let shared = try reader.select(byAccount("shared"))
            #expect(shared.count == 1)
            for item in try reader.select(ItemSelection(itemClass: .genericPassword)) {
                _ = try reader.openSecret(item)
            }
        }
    }

    @Test func committedWritesSurviveKill9() throws {
        let folder = try TempFolder()
        defer { folder.remove() }
        let child = try startChild(["COFFER_ITEMSTORE_CHILD": "forever", "COFFER_ITEMSTORE_DB": folder.database.path])
        // Read "COMMITTED <n>" lines until 30 writes have returned, then SIGKILL mid-stream.
        var committed: [Int] = []
        while committed.count < 30, let line = child.nextOutputLine() {
            if line.hasPrefix("COMMITTED "), let n = Int(line.dropFirst(10)) { committed.append(n) }
        }
        child.kill()
        #expect(committed.count >= 30)
        let store = try ItemStore(databaseURL: folder.database, keyring: FakeKeyring(seed: Self.seed))
        try store.read { reader in
            for n in committed {
                let found = try reader.select(byAccount("kill-\(n)"))
                #expect(found.count == 1, "write \(n) returned but is gone")
                if let item = found.first { #expect(try reader.openSecret(item) == bytes("secret-\(n)")) }
            }
        }
    }

    /// Runs only inside a child process started by the tests above (does nothing otherwise).
    @Test func childProcessEntryPoint() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let mode = environment["COFFER_ITEMSTORE_CHILD"], let path = environment["COFFER_ITEMSTORE_DB"] else {
            return
        }
        let store = try ItemStore(databaseURL: URL(fileURLWithPath: path), keyring: FakeKeyring(seed: Self.seed))
        switch mode {
        case "burst":
            let id = environment["COFFER_ITEMSTORE_ID"] ?? "?"
            for index in 0..<30 {
                try store.write { try $0.insert(genericPassword(account: "child\(id)-\(index)")) }
                if index == 10 {
                    do {
                        try store.write { try $0.insert(genericPassword(account: "shared")) }
                    } catch ItemStoreError.duplicateItem {}
                }
            }
        case "forever":
            var n = 0
            while n < 100_000 {
                try store.write { try $0.insert(genericPassword(account: "kill-\(n)", secret: bytes("secret-\(n)"))) }
                FileHandle.standardOutput.write(Data("COMMITTED \(n)\n".utf8))
                n += 1
            }
        default:
            Issue.record("unknown child mode")
        }
    }
}
