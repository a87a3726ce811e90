// Sync's figures, against a PostgreSQL server Benchmarks/sync.sh starts. Run through that script (release build).
//
//   CofferSyncBenchmarks first-sync ITEMS          DSN and password in COFFER_BENCH_DSN and PGPASSWORD
//   CofferSyncBenchmarks propagation COUNT SOCKET-A SOCKET-B
//   CofferSyncBenchmarks find-cost on|off COUNT     (for callgrind: COUNT finds on a 1,000-item keychain, syncing or not)
//   CofferSyncBenchmarks load ACCOUNTS DEVICES RATE SECONDS   admin DSN, its password and the server's data folder in
//                                                   COFFER_BENCH_ADMIN_DSN, PGPASSWORD and COFFER_BENCH_PGDATA
import Engine
import Foundation
import KeychainClient
import KeychainModel
import KeychainSelection
import Logging
import Query
import SyncClient
import SyncServer

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessInfo.processInfo.environment

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.down)))]
}

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
}

/// A new embedded keychain and sync over the same files.
func keychain(_ folder: URL) throws -> (any KeychainClient, KeychainSync) {
    let keychain = KeychainLocation.client(for: .embedded(KeychainFolder(url: folder)), environment: [:])
    let engine = try KeychainEngine.open(folder: KeychainFolder(url: folder))
    return (keychain, KeychainSync(engine: engine, logger: Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })))
}

switch arguments.first {
case "first-sync":
    let count = Int(arguments.dropFirst().first ?? "") ?? 10_000
    guard let dsn = environment["COFFER_BENCH_DSN"], let password = environment["PGPASSWORD"] else {
        FileHandle.standardError.write(Data("set COFFER_BENCH_DSN and PGPASSWORD (Benchmarks/sync.sh does)\n".utf8))
        exit(2)
    }
    let endpoint = try ServerEndpoint(dsn: dsn, defaultUser: "coffer")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let (first, firstSync) = try keychain(scratch.appendingPathComponent("first"))
    var queries: [QueryDictionary] = []
    for index in 0..<count {
        queries.append([
            "class": "genp", "svce": .string("bench-service"), "acct": .string("account-\(index)"), "sync": true,
            "v_Data": .data(Data("secret-value-\(index)-\(String(repeating: "x", count: 24))".utf8)),
        ])
    }
    for start in stride(from: 0, to: queries.count, by: 1_000) {
        _ = try first.blocking.addEach(Array(queries[start..<min(start + 1_000, queries.count)]))
    }
    let clock = ContinuousClock()
    var recovery: RecoveryKey?
    let sent = try await clock.measure { recovery = try await firstSync.setUp(server: endpoint, password: password, deviceName: "first") }
    let pushed = try await clock.measure { _ = try await firstSync.syncNow() }
    let (second, secondSync) = try keychain(scratch.appendingPathComponent("second"))
    var report = SyncReport()
    let joined = try await clock.measure {
        try await secondSync.join(server: endpoint, password: password, deviceName: "second", recoveryKey: RecoveryKey(text: recovery!.text))
        report = try await secondSync.syncNow()
    }
    guard
        case .data(let last)? = try second.blocking.copyMatching([
            "class": "genp", "svce": "bench-service", "acct": .string("account-\(count - 1)"), "sync": true, "r_Data": true,
        ]), last == Data("secret-value-\(count - 1)-\(String(repeating: "x", count: 24))".utf8)
    else {
        FileHandle.standardError.write(Data("the new device did not get the last item\n".utf8))
        exit(1)
    }
    let connection = try await SyncServerConnection.connect(to: endpoint, password: password)
    let sizes = try await connection.storage()
    await connection.close()
    print("| first device: setup (device log, keys) | \(String(format: "%.2f", milliseconds(sent) / 1_000)) s |")
    print("| first device: send \(count) items | \(String(format: "%.2f", milliseconds(pushed) / 1_000)) s |")
    print("| new device: join and receive \(report.applied) items (first sync) | \(String(format: "%.2f", milliseconds(joined) / 1_000)) s |")
    print("| server storage per item (records table, its indexes and TOAST) | \(sizes.perRecord) bytes |")
    print("| sealed record per item (ciphertext alone) | \(sizes.sealedPerRecord) bytes |")
    print("| ratio | \(String(format: "%.2f", Double(sizes.perRecord) / Double(sizes.sealedPerRecord)))× |")

case "propagation":
    guard arguments.count == 4, let count = Int(arguments[1]) else {
        FileHandle.standardError.write(Data("usage: propagation COUNT SOCKET-A SOCKET-B\n".utf8))
        exit(2)
    }
    let (from, to) = (KeychainLocation.client(for: .daemon(socketPath: arguments[2])), KeychainLocation.client(for: .daemon(socketPath: arguments[3])))
    let run = UUID().uuidString.prefix(8)
    var latencies: [Double] = []
    let clock = ContinuousClock()
    for index in 0..<count {
        let account = KeychainValue.string("propagation-\(run)-\(index)")
        let start = clock.now
        _ = try from.blocking.add(["class": "genp", "svce": "bench-propagation", "acct": account, "sync": true, "v_Data": .data(Data("v".utf8))])
        while true {
            let query: QueryDictionary = ["class": "genp", "svce": "bench-propagation", "acct": account, "sync": true, "r_Attributes": true]
            if case .some(.some) = try? to.blocking.copyMatching(query) { break }
            guard clock.now - start < .seconds(30) else {
                FileHandle.standardError.write(Data("item \(index) did not arrive within 30 s\n".utf8))
                exit(1)
            }
            usleep(500)
        }
        latencies.append(milliseconds(clock.now - start))
        usleep(20_000)
    }
    print(
        "| add on one daemon → found through the other (\(count) items) | \(String(format: "%.1f", percentile(latencies, 0.5))) ms | \(String(format: "%.1f", percentile(latencies, 0.99))) ms | \(String(format: "%.1f", latencies.min()!)) ms | \(String(format: "%.1f", latencies.max()!)) ms |"
    )

case "find-cost":
    // A keychain that syncs has the ledger's triggers and settings; a find must cost what it costs without them.
    guard arguments.count == 3, let count = Int(arguments[2]) else {
        FileHandle.standardError.write(Data("usage: find-cost on|off COUNT\n".utf8))
        exit(2)
    }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-find-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let client = KeychainLocation.client(for: .embedded(KeychainFolder(url: scratch)), environment: [:])
    var queries: [QueryDictionary] = []
    for index in 0..<1_000 {
        queries.append([
            "class": "genp", "svce": "find-cost", "acct": .string("account-\(index)"), "sync": true, "v_Data": .data(Data("value-\(index)".utf8)),
        ])
    }
    _ = try client.blocking.addEach(queries)
    if arguments[1] == "on" { try KeychainEngine.open(folder: KeychainFolder(url: scratch)).startSyncing(settings: ["server": Data("unused".utf8)]) }
    var found = 0
    for index in 0..<count {
        let query: QueryDictionary = ["class": "genp", "svce": "find-cost", "acct": .string("account-\((index * 7) % 1_000)"), "sync": true, "r_Data": true]
        if case .some(.some) = try? client.blocking.copyMatching(query) { found += 1 }
    }
    guard found == count else {
        FileHandle.standardError.write(Data("found \(found) of \(count)\n".utf8))
        exit(1)
    }

case "load":
    guard arguments.count == 5, let accounts = Int(arguments[1]), let devices = Int(arguments[2]), let rate = Int(arguments[3]),
        let seconds = Int(arguments[4]), let dsn = environment["COFFER_BENCH_ADMIN_DSN"], let password = environment["PGPASSWORD"],
        let data = environment["COFFER_BENCH_PGDATA"]
    else {
        FileHandle.standardError.write(Data("usage: load ACCOUNTS DEVICES RATE SECONDS (Benchmarks/sync-load.sh sets the environment)\n".utf8))
        exit(2)
    }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-load-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let load = LoadRun(
        admin: try ServerEndpoint(dsn: dsn, defaultUser: "coffer_admin"), adminPassword: password, accounts: accounts, devicesPerAccount: devices,
        rate: rate, duration: .seconds(seconds), dataFolder: data)
    let report = try await load.run(in: scratch)
    let fraction = { (value: Double) in String(format: "%.1f", value) }
    print(
        "| \(accounts * devices) devices in \(accounts) accounts, \(report.changes) adds in \(fraction(report.seconds)) s (\(fraction(Double(report.changes) / report.seconds))/s) | value |"
    )
    print("| --- | --- |")
    print("| setup: accounts founded, devices joined | \(fraction(report.setupSeconds)) s |")
    print("| deliveries expected (each add to the other devices of its account) | \(report.propagations.count + report.lost) |")
    print("| lost (not on a device two minutes after the last add) | \(report.lost) |")
    if !report.propagations.isEmpty {
        print(
            "| propagation p50 / p99 / max (add acknowledged → found on another device) | \(fraction(percentile(report.propagations, 0.5))) ms / \(fraction(percentile(report.propagations, 0.99))) ms / \(fraction(report.propagations.max()!)) ms |"
        )
    }
    print(
        "| server CPU per change (PostgreSQL's processes, load and convergence) | \(String(format: "%.2f", report.serverCPUSeconds * 1_000 / Double(report.changes))) ms |"
    )
    print(
        "| devices' CPU per change (this process: every device's sync and keychain) | \(String(format: "%.2f", report.clientCPUSeconds * 1_000 / Double(report.changes))) ms |"
    )
    if report.lost > 0 { exit(1) }

default:
    FileHandle.standardError.write(
        Data(
            "usage: CofferSyncBenchmarks first-sync ITEMS | propagation COUNT SOCKET-A SOCKET-B | find-cost on|off COUNT | load ACCOUNTS DEVICES RATE SECONDS\n"
                .utf8))
    exit(2)
}
