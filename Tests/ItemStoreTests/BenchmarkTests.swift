import Foundation
import Synchronization
import KeychainModel
import Testing

@testable import ItemStore

/// Per-operation costs of the store under each connection strategy. Runs only with
/// `COFFER_ITEMSTORE_BENCH=1` (it takes a few seconds and its numbers are for people):
///
///     COFFER_ITEMSTORE_BENCH=1 swift test --filter ItemStoreBenchmark
@Suite("ItemStoreBenchmark", .serialized)
struct ItemStoreBenchmark {
    private static var enabled: Bool { ProcessInfo.processInfo.environment["COFFER_ITEMSTORE_BENCH"] == "1" }

    /// Microseconds per call of `body`: the best of 3 rounds of `count` calls (the machine is shared).
    private func measure(_ count: Int, _ body: (Int) throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for round in 0..<3 {
            let start = ContinuousClock.now
            for index in 0..<count { try body(round * count + index) }
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            best = min(best, (Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / Double(count))
        }
        return best
    }

    /// Microseconds taken by one call of `body`.
    private func measureOnce(_ body: () throws -> Void) rethrows -> Double {
        let start = ContinuousClock.now
        try body()
        let (seconds, attoseconds) = (ContinuousClock.now - start).components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }

    @Test(.enabled(if: enabled)) func cryptoCost() throws {
        let keyring = FakeKeyring()
        let key = try keyring.indexKey()
        let indexing = measure(2000) { index in
            let indexer = ItemCrypto.Indexer(indexKey: key, itemClass: .genericPassword)
            for code in ["acct", "svce", "agrp"] { _ = indexer.index(code: code, value: bytes("value-\(index)")) }
        }
        let metadata = try keyring.metadataKey(for: .always)
        let aad = ItemCrypto.aad(
            .attributes, version: 1, itemClass: .genericPassword, protection: .always, persistentRef: Data(count: 16))
        let payload = Data(count: 200)
        let sealing = try measure(2000) { _ in
            _ = try ItemCrypto.seal(payload, key: metadata, aad: aad, withPresenceByte: false)
        }
        let sealed = try ItemCrypto.seal(payload, key: metadata, aad: aad, withPresenceByte: false)
        let opening = try measure(2000) { _ in
            _ = try ItemCrypto.open(sealed, key: metadata, aad: aad, withPresenceByte: false, rowID: 1)
        }
        print(String(format: "BENCH crypto: indexer + 3 blind indexes %.1f µs, seal 200 B %.1f µs, open 200 B %.1f µs", indexing, sealing, opening))
    }

    @Test(.enabled(if: enabled), arguments: [
        ("pool, manual BEGIN/COMMIT (default)", ItemStore.Options()),
        ("pool, GRDB read{} / inTransaction", ItemStore.Options(readMode: .grdb, writeMode: .grdb)),
        ("queue, manual BEGIN/COMMIT", ItemStore.Options(backend: .queue)),
        ("queue, GRDB read{} / inTransaction", ItemStore.Options(backend: .queue, readMode: .grdb, writeMode: .grdb)),
    ])
    func perOperationCost(name: String, options: ItemStore.Options) throws {
        try withStore(options: options) { store, _, _ in
            try store.write { writer in
                for index in 0..<1000 { try writer.insert(genericPassword(account: "seed-\(index)")) }
            }
            let emptyRead = try measure(2000) { _ in try store.read { _ in } }
            let emptyWrite = try measure(500) { _ in try store.write { _ in } }
            let lookup = try measure(2000) { index in
                let found = try store.read { try $0.select(byAccount("seed-\(index % 1000)")) }
                precondition(found.count == 1)
            }
            let lookupOpen = try measure(2000) { index in
                _ = try store.read { reader in
                    let item = try reader.select(byAccount("seed-\(index % 1000)"))[0]
                    return (try reader.openAttributes(item), try reader.openSecret(item))
                }
            }
            let insert = try measure(300) { index in
                _ = try store.write { try $0.insert(genericPassword(account: "new-\(index)")) }
            }
            let batch = try measure(1) { round in
                try store.write { writer in
                    for index in 0..<300 { try writer.insert(genericPassword(account: "batch-\(round)-\(index)")) }
                }
            } / 300
            // Lookups while another thread keeps writing (durable inserts): readers of a pool never wait for
            // the writer; a queue serializes them behind each commit's fsync.
            let writing = Atomic<Bool>(true)
            let writes = Atomic<Int>(0)
            let writer = Thread {
                while writing.load(ordering: .relaxed) {
                    let index = writes.wrappingAdd(1, ordering: .relaxed).oldValue
                    _ = try? store.write { try $0.insert(genericPassword(account: "busy-\(index)")) }
                }
            }
            writer.start()
            while writes.load(ordering: .relaxed) < 5 { usleep(100) }
            var latencies: [Double] = []
            let writesBefore = writes.load(ordering: .relaxed)
            let start = ContinuousClock.now
            for index in 0..<2000 {
                latencies.append(try measureOnce { _ = try store.read { try $0.select(byAccount("seed-\(index % 1000)")) } })
            }
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            let elapsed = Double(seconds) + Double(attoseconds) / 1e18
            let writesDuring = writes.load(ordering: .relaxed) - writesBefore
            writing.store(false, ordering: .relaxed)
            while !writer.isFinished { usleep(1000) }
            latencies.sort()
            let underWrites = String(
                format: "lookup while another thread writes: mean %.1f µs, p50 %.1f µs, p99 %.1f µs (%.0f writes/s meanwhile)",
                latencies.reduce(0, +) / Double(latencies.count), latencies[latencies.count / 2],
                latencies[latencies.count * 99 / 100], Double(writesDuring) / elapsed)
            let line = String(
                format: "BENCH %@: empty read %.1f µs, empty write %.1f µs, point lookup %.1f µs, lookup+open attrs+secret %.1f µs, durable insert %.1f µs, insert in batch %.1f µs; %@",
                name, emptyRead, emptyWrite, lookup, lookupOpen, insert, batch, underWrites)
            print(line)
        }
    }
}
