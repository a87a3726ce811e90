import Engine
import Foundation
import KeychainSelection
import KeychainModel
import Keystore
import Query

#if canImport(Glibc)
import Glibc
#endif

/// Per-operation latency of the embedded keychain (through the dictionary API, as `SecItem…` calls
/// it) at several sizes, next to the raw SQLite baseline measured in the same run.
enum ItemsBenchmark {
    struct Row {
        let size: Int
        let operation: String
        let samples: [Duration]
        var p50: Duration { samples.sorted()[samples.count / 2] }
        var p90: Duration { samples.sorted()[samples.count * 9 / 10] }
        var p99: Duration { samples.sorted()[samples.count * 99 / 100] }
    }

    static func run(in scratch: URL, sizes: [Int], operations: Int) throws -> [Row] {
        var rows: [Row] = []
        for size in sizes {
            let folder = KeychainFolder(url: scratch.appendingPathComponent("items-\(size)"))
            let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: "bench")))
            try populate(keychain, count: size)
            rows += try measureKeychain(keychain, size: size, operations: operations)

            let raw = try RawSQLiteBaseline(path: scratch.appendingPathComponent("raw-\(size).sqlite").path)
            var done = 0
            while done < size {
                let chunk = min(50_000, size - done)
                try raw.populate(from: done, count: chunk)
                done += chunk
            }
            try raw.analyze()
            var accounts = RandomAccounts(count: size)
            rows.append(
                Row(size: size, operation: "raw SQLite: indexed lookup", samples: try timed(operations) { try _ = raw.lookup(account: accounts.next()) }))
            var next = size
            rows.append(
                Row(
                    size: size, operation: "raw SQLite: durable insert",
                    samples: try timed(min(operations, 300)) {
                        try raw.durableInsert(account: next)
                        next += 1
                    }))
            try? FileManager.default.removeItem(at: folder.url)
        }
        return rows
    }

    /// Finds (data) on a 1 000-item keychain for `seconds`: a steady loop for a profiler to sample.
    static func findLoop(in scratch: URL, seconds: Int) throws {
        let folder = KeychainFolder(url: scratch.appendingPathComponent("find-loop"))
        let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: "bench")))
        try populate(keychain, count: 1_000)
        if ProcessInfo.processInfo.environment["COFFER_BENCH_PHASES"] != nil {
            let engine = try keychain.service.engine()
            let queries = (0..<1_000).map { findQuery($0, returning: "r_Data") }
            let requests = try queries.map { query throws(QueryRejection) in try QueryParser.parseSearch(query) }
            func perCall(_ body: (Int) throws -> Void) rethrows -> Duration {
                let start = ContinuousClock.now
                for index in 0..<20_000 { try body(index % 1_000) }
                return (ContinuousClock.now - start) / 20_000
            }
            let parse = try perCall { index in _ = try QueryParser.parseSearch(queries[index]) }
            let engineFind = try perCall { index in _ = try engine.copyMatching(requests[index], caller: keychain.caller) }
            let whole = try perCall { index in _ = try keychain.blocking.copyMatching(queries[index]) }
            print("parse \(parse)  engine.copyMatching \(engineFind)  whole \(whole)")
        }
        if ProcessInfo.processInfo.environment["COFFER_BENCH_SOCKET_TRIP"] != nil {
            return try SocketTripEcho.findsBetweenTrips(keychain, seconds: seconds)
        }
        let start = ContinuousClock.now
        let end = start + .seconds(seconds)
        var finds = 0
        while ContinuousClock.now < end {
            for _ in 0..<100 { _ = try keychain.blocking.copyMatching(findQuery(Int.random(in: 0..<1_000), returning: "r_Data")) }
            finds += 100
        }
        print("find loop: \(finds) finds in \(ContinuousClock.now - start)")
    }

    /// A query for item `index`, asking for `returning` (`r_Data`, `r_Attributes`) when given.
    static func findQuery(_ index: Int, returning: String?) -> QueryDictionary {
        var query: QueryDictionary = ["class": "genp", "svce": "bench", "acct": .string("account-\(index)")]
        if let returning { query.entries[.string(returning)] = true }
        return query
    }

    static func item(_ index: Int, secret: String = "secret-value-0123456789") -> QueryDictionary {
        ["class": "genp", "svce": "bench", "acct": .string("account-\(index)"), "labl": .string("label \(index)"), "v_Data": .data(Data(secret.utf8))]
    }

    /// Bulk-imports `count` items in transactions of 10 000, showing progress on a terminal.
    static func populate(_ keychain: EmbeddedKeychain, count: Int) throws {
        let engine = try keychain.service.engine()
        let interactive = isatty(STDERR_FILENO) == 1
        let chunk = 10_000
        var done = 0
        while done < count {
            let size = min(chunk, count - done)
            let requests = try (done..<(done + size)).map { index throws(QueryRejection) in try QueryParser.parseAdd(item(index)) }
            try engine.add(contentsOf: requests, caller: keychain.caller)
            done += size
            if interactive {
                FileHandle.standardError.write(Data("\rimporting \(count) items: \(done * 100 / count)%".utf8))
            }
        }
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    private static func measureKeychain(_ keychain: EmbeddedKeychain, size: Int, operations: Int) throws -> [Row] {
        var rows: [Row] = []
        var accounts = RandomAccounts(count: size)
        rows.append(
            Row(
                size: size, operation: "find (data)",
                samples: try timed(operations) {
                    _ = try keychain.blocking.copyMatching(findQuery(accounts.next(), returning: "r_Data"))
                }))
        rows.append(
            Row(
                size: size, operation: "find (attributes)",
                samples: try timed(operations) {
                    _ = try keychain.blocking.copyMatching(findQuery(accounts.next(), returning: "r_Attributes"))
                }))
        let writes = min(operations, 300)
        var next = size
        rows.append(
            Row(
                size: size, operation: "add (durable)",
                samples: try timed(writes) {
                    _ = try keychain.blocking.add(item(next))
                    next += 1
                }))
        rows.append(
            Row(
                size: size, operation: "update (data)",
                samples: try timed(writes) {
                    try keychain.blocking.update(findQuery(accounts.next(), returning: nil), attributesToUpdate: ["v_Data": .data(Data("new-secret".utf8))])
                }))
        var victim = size
        rows.append(
            Row(
                size: size, operation: "delete",
                samples: try timed(writes) {
                    try keychain.blocking.delete(findQuery(victim, returning: nil))
                    victim += 1
                }))
        return rows
    }

    /// Item numbers drawn at random in advance, so that no timed call pays for drawing one
    /// (`SystemRandomNumberGenerator` makes a system call per number).
    struct RandomAccounts {
        private let numbers: [Int]
        private var position = 0

        init(count: Int) { numbers = (0..<4_096).map { _ in Int.random(in: 0..<count) } }

        mutating func next() -> Int {
            defer { position = (position + 1) % numbers.count }
            return numbers[position]
        }
    }

    /// Runs `body` `count` times (after a short warm-up), timing each call.
    static func timed(_ count: Int, _ body: () throws -> Void) throws -> [Duration] {
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let start = clock.now
            try body()
            samples.append(clock.now - start)
        }
        return samples
    }

    /// Runs each of `bodies` `count` times, in turns of `block` calls (A×block, B×block, …, then again),
    /// timing each call: figures that goals compare are taken side by side, so a slow minute of a shared
    /// machine weighs on all of them alike instead of on whichever ran during it, while each turn runs long
    /// enough to measure its operation with warm caches, as the one-at-a-time figures do.
    static func interleaved(_ count: Int, block: Int = 50, _ bodies: [() throws -> Void]) throws -> [[Duration]] {
        for body in bodies { for _ in 0..<min(count, 20) { try body() } }  // warm-up, untimed
        let clock = ContinuousClock()
        var samples = [[Duration]](repeating: [], count: bodies.count)
        for index in samples.indices { samples[index].reserveCapacity(count) }
        var done = 0
        while done < count {
            let turn = min(block, count - done)
            for (which, body) in bodies.enumerated() {
                for _ in 0..<turn {
                    let start = clock.now
                    try body()
                    samples[which].append(clock.now - start)
                }
            }
            done += turn
        }
        return samples
    }
}
