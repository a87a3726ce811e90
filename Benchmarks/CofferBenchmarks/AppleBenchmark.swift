import Foundation
import KeychainModel
import KeychainSelection
import Query
@_spi(Testing) import Security

/// Apple's calls as Apple code makes them (`SecItemCopyMatching` and `SecItemAdd` with Foundation
/// dictionaries, the result read back as `Data`) next to SQLite alone doing the same durable work in the same
/// process (``SQLiteFloor``), on keychains of the same rows: service, account and a 32-byte secret. Finds are
/// of random accounts; adds are durable, one call each. The two sides take turns of 50 calls, and the whole
/// comparison is repeated, so that the machine's slow spells hit both alike.
enum AppleBenchmark {
    /// One size's p50s, one per repetition.
    struct Figures {
        let size: Int
        var cofferFind: [Duration] = []
        var floorFind: [Duration] = []
        var cofferAdd: [Duration] = []
        var floorAdd: [Duration] = []
    }

    static let service = "bench"

    static func run(in scratch: URL, sizes: [Int], finds: Int, adds: Int, repetitions: Int) throws -> [Figures] {
        try sizes.map { size in try run(in: scratch, size: size, finds: finds, adds: adds, repetitions: repetitions) }
    }

    private static func run(in scratch: URL, size: Int, finds: Int, adds: Int, repetitions: Int) throws -> Figures {
        let folder = KeychainFolder(url: scratch.appendingPathComponent("apple-\(size)"))
        let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: service)))
        let floorPath = scratch.appendingPathComponent("apple-floor-\(size).sqlite").path
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let floor = try SQLiteFloor(path: floorPath)
        let secret = Data((0..<32).map { UInt8($0) })
        try populate(keychain, count: size, secret: secret)
        try floor.populate(service: service, accounts: 0..<size, secret: secret)
        var figures = Figures(size: size)
        var accounts = ItemsBenchmark.RandomAccounts(count: size)
        var added = 0
        try SecurityTesting.withKeychain(at: folder.url) {
            for _ in 0..<repetitions {
                let found = try ItemsBenchmark.interleaved(
                    finds,
                    [
                        { try find(account: "account-\(accounts.next())") },
                        { _ = try floor.find(service: service, account: "account-\(accounts.next())") },
                    ])
                figures.cofferFind.append(median(found[0]))
                figures.floorFind.append(median(found[1]))
                let (coffer, sqlite) = (Counter(), Counter())
                let written = try ItemsBenchmark.interleaved(
                    adds,
                    [
                        { try add(account: "added-\(added)-\(coffer.next())", secret: secret) },
                        { try floor.add(service: service, account: "added-\(added)-\(sqlite.next())", secret: secret) },
                    ])
                added += 1
                figures.cofferAdd.append(median(written[0]))
                figures.floorAdd.append(median(written[1]))
            }
        }
        try? FileManager.default.removeItem(at: folder.url)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: floorPath + suffix) }
        return figures
    }

    /// For profilers (`strace -c`, `Benchmarks/instructions.sh`): on a keychain of `size` items, `count` adds, then
    /// `count` finds of random accounts, each one call of ``add(account:secret:)`` or ``find(account:)``; prints
    /// how many of each.
    static func profilingLoop(in scratch: URL, size: Int, count: Int) throws {
        let folder = KeychainFolder(url: scratch.appendingPathComponent("apple-loop"))
        let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: service)))
        let secret = Data((0..<32).map { UInt8($0) })
        try populate(keychain, count: size, secret: secret)
        var accounts = ItemsBenchmark.RandomAccounts(count: size)
        try SecurityTesting.withKeychain(at: folder.url) {
            // The shared keychain opens its engine on its first call, outside the calls counted.
            try find(account: "account-0")
            for index in 0..<count { try add(account: "added-\(index)", secret: secret) }
            for _ in 0..<count { try find(account: "account-\(accounts.next())") }
        }
        print("apple loop: \(count) adds, then \(count) finds, on \(size) items")
    }

    /// One find as Apple code makes it.
    @inline(never)
    static func find(account: String) throws {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecReturnData as String: true,
        ]
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, result as? Data != nil else { throw KeychainStatus(code: status) }
    }

    /// One durable add as Apple code makes it.
    @inline(never)
    static func add(account: String, secret: Data) throws {
        let attributes: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecValueData as String: secret,
        ]
        let status = SecItemAdd(attributes as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainStatus(code: status) }
    }

    /// Bulk-imports `count` items of the compared shape in transactions of 10 000 (not measured).
    private static func populate(_ keychain: EmbeddedKeychain, count: Int, secret: Data) throws {
        let engine = try keychain.service.engine()
        var done = 0
        while done < count {
            let size = min(10_000, count - done)
            let requests = try (done..<(done + size)).map { index throws(QueryRejection) in
                try QueryParser.parseAdd(["class": "genp", "svce": .string(service), "acct": .string("account-\(index)"), "v_Data": .data(secret)])
            }
            try engine.add(contentsOf: requests, caller: keychain.caller)
            done += size
        }
    }

    private static func median(_ samples: [Duration]) -> Duration { samples.sorted()[samples.count / 2] }

    /// Numbers for the accounts one side adds.
    private final class Counter {
        private var value = 0
        func next() -> Int {
            defer { value += 1 }
            return value
        }
    }

    /// The comparison as a Markdown table, with the issue's goals.
    static func report(_ all: [Figures], finds: Int, adds: Int) -> String {
        var lines = [
            "| figure | items | Coffer (p50 of each repetition) | SQLite alone | ratio (medians) | goal |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for figures in all {
            lines.append(
                row("`SecItemCopyMatching` (service, account, `kSecReturnData`)", figures.size, figures.cofferFind, figures.floorFind, goal: 2.5))
            lines.append(row("`SecItemAdd` (durable)", figures.size, figures.cofferAdd, figures.floorAdd, goal: 2.0))
        }
        lines.append("")
        lines.append(
            "\(finds) random finds and \(adds) adds per repetition, \(all.first?.cofferFind.count ?? 0) repetitions; each side in turns of 50 calls; "
                + "SQLite alone: WAL, `synchronous=FULL`, a unique index on (service, account), the 32-byte secret in the row, "
                + "an add is `BEGIN IMMEDIATE`, `INSERT`, `COMMIT`.")
        return lines.joined(separator: "\n")
    }

    private static func row(_ figure: String, _ size: Int, _ coffer: [Duration], _ floor: [Duration], goal: Double) -> String {
        let ratio = median(coffer).seconds / median(floor).seconds
        let met = ratio <= goal ? "met" : "not met"
        return "| \(figure) | \(size) | \(coffer.map(Measurement.format).joined(separator: ", ")) | "
            + "\(floor.map(Measurement.format).joined(separator: ", ")) | \(String(format: "%.1f", ratio))× | ≤ \(goal)× (\(met)) |"
    }
}
