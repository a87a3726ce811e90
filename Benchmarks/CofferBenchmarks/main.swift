// Coffer's benchmarks. Run with Benchmarks/run.sh (release build); it writes BENCHMARKS.md.
//
//   CofferBenchmarks [--quick] [--sizes 1000,100000,1000000] [suite…]     suites: apple, keystore, items, security, access-control, keys, certificates, files, backup, ssh-agent, daemon, daemon-latency, daemon-cpu (and find-loop, security-loop, apple-loop, add-sign-loop, daemon-loop, daemon-loop-concurrent, certificates-loop, add-find-loop, post-quantum-loop, for profilers; tpm with COFFER_BENCH_TPM; post-quantum)
import CofferDiagnostics
import Foundation
import KeychainModel

DiagnosticsLevel.bootstrapExecutable()

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let sizesArgument = arguments.firstIndex(of: "--sizes").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let sizes = sizesArgument.map { $0.split(separator: ",").compactMap { Int($0) } } ?? (quick ? [1_000, 10_000] : [1_000, 100_000, 1_000_000])
let requested = Set(arguments.filter { !$0.hasPrefix("--") && $0 != sizesArgument })
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: scratch) }

/// A table of p50 and p90 per size and operation.
func table(_ title: String, _ rows: [ItemsBenchmark.Row]) {
    print("\n### \(title)\n")
    print("| items | operation | p50 | p90 |")
    print("| --- | --- | --- | --- |")
    for row in rows {
        print("| \(row.size) | \(row.operation) | \(Measurement.format(row.p50)) | \(Measurement.format(row.p90)) |")
    }
}

func section(_ title: String, _ measurements: [Measurement]) {
    print("\n### \(title)\n")
    print("| operation | median per op | min | max |")
    print("| --- | --- | --- | --- |")
    for measurement in measurements { print(measurement.row) }
}

do {
    if requested.contains("security-loop") {
        // For profilers: finds through the client API and `SecItemCopyMatching` in turns on a 1 000-item keychain
        // for 5 s, printing how many of each.
        try SecurityBenchmark.findLoop(in: scratch, seconds: 5)
    }
    if requested.contains("apple-loop") {
        // For profilers: 2 000 `SecItemAdd` calls, then 2 000 `SecItemCopyMatching` finds, on 10 000 items
        // (`COFFER_BENCH_LOOP_COUNT` sets another count; 0 counts what the rest of the run costs).
        let count = ProcessInfo.processInfo.environment["COFFER_BENCH_LOOP_COUNT"].flatMap { Int($0) } ?? 2_000
        try AppleBenchmark.profilingLoop(in: scratch, size: 10_000, count: count)
    }
    if requested.contains("add-sign-loop") {
        // For profilers: 300 adds, 300 software signatures and 300 by a kept key on an embedded keychain.
        try ProfilingLoop.run(in: scratch, count: 300)
    }
    if requested.contains("certificates-loop") {
        // For profilers: 3 000 trust evaluations, then 3 000 identity and 3 000 key queries (1 000 identities), nothing printed.
        try CertificatesBenchmark.profilingLoops(in: scratch, count: 3_000, identities: 1_000)
    }
    if requested.contains("daemon-loop") || requested.contains("daemon-loop-concurrent") {
        // For profilers: finds on an embedded keychain and through cofferd in turns for 5 s, printing how many of each.
        try DaemonFindLoop.run(in: scratch, seconds: 5, concurrent: requested.contains("daemon-loop-concurrent"))
    }
    if requested.contains("tpm") {
        // The TPM beside the file (`Benchmarks/tpm.sh` starts swtpm and names it in COFFER_BENCH_TPM).
        guard let tcti = ProcessInfo.processInfo.environment["COFFER_BENCH_TPM"] else { throw KeychainStatus.param }
        try TPMBenchmark.run(in: scratch, tcti: tcti, quick: quick)
    }
    if requested.contains("post-quantum") {
        // ML-KEM-768 and ML-DSA-65 with keys the keychain keeps, beside swift-crypto (`Benchmarks/post-quantum.sh`).
        try PostQuantumBenchmark.run(in: scratch, quick: quick)
    }
    if requested.contains("post-quantum-loop") {
        // For profilers: 200 decapsulations and signatures with swift-crypto's keys, then with kept keys.
        try PostQuantumBenchmark.profilingLoop(in: scratch, count: 200)
    }
    if requested.contains("add-find-loop") {
        // For profilers: 300 adds then 300 finds on an embedded keychain (bound to the TPM COFFER_TPM names, or not).
        try TPMBenchmark.itemsLoop(in: scratch, count: 300)
    }
    if requested.contains("find-loop") {
        // For profilers (`perf record`): finds on a 1 000-item keychain for 5 s, printing how many.
        try ItemsBenchmark.findLoop(in: scratch, seconds: 5)
    }
    if requested.isEmpty || requested.contains("apple") {
        // Apple's calls beside SQLite alone doing the same durable work, same process, same rows.
        let appleSizes = sizesArgument == nil ? (quick ? [10_000] : [10_000, 100_000]) : sizes
        let (finds, adds, repetitions) = quick ? (1_000, 500, 2) : (4_000, 2_000, 3)
        let figures = try AppleBenchmark.run(in: scratch, sizes: appleSizes, finds: finds, adds: adds, repetitions: repetitions)
        print("\n### Apple's calls next to SQLite alone (embedded keychain, generic passwords)\n")
        print(AppleBenchmark.report(figures, finds: finds, adds: adds))
    }
    if requested.isEmpty || requested.contains("keystore") {
        section("Keystore", try KeystoreBenchmark.run(in: scratch, quick: quick))
        print(
            """

            The passcode KDF is calibrated when a passcode is set: N starts at 2^15 and doubles until one \
            derivation takes at least 100 ms on the machine (release build). Item-key wrap and unwrap are what \
            every item write and secret read pay on top of SQLite.
            """)
    }
    if requested.isEmpty || requested.contains("items") {
        let rows = try ItemsBenchmark.run(in: scratch, sizes: sizes, operations: quick ? 300 : 2_000)
        table("Items (embedded keychain, generic passwords, through the dictionary API)", rows)
        print(ItemsReport.goals(rows))
        let floor = try CryptoFloorBenchmark.run(quick: quick)
        print("\n#### The cryptography of one find, alone (swift-crypto, release)\n")
        print("| step | median per op | min | max |")
        print("| --- | --- | --- | --- |")
        for step in floor { print(step.row) }
        print(ItemsReport.floor(rows, crypto: CryptoFloorBenchmark.findFloor(floor), blindIndexes: CryptoFloorBenchmark.blindIndexesPerFind))
    }
    if requested.isEmpty || requested.contains("security") {
        let size = quick ? 10_000 : 100_000
        let rows = try SecurityBenchmark.run(in: scratch, size: size, operations: quick ? 1_000 : 5_000)
        table("Apple's API: `SecItemCopyMatching` next to the client API (embedded keychain, \(size) items)", rows)
        let ratio = rows[1].p50.seconds / rows[0].p50.seconds
        print("\nGoal: a find through `SecItemCopyMatching` within 1.2× of the same find through the client API: measured \(String(format: "%.2f", ratio))×.")
    }
    if requested.isEmpty || requested.contains("access-control") {
        let size = quick ? 10_000 : 100_000
        let (rows, _) = try AccessControlBenchmark.run(in: scratch, size: size, operations: quick ? 1_000 : 5_000)
        table("Access control: reads that need the person (embedded keychain, \(size) items)", rows)
        let reuse = rows[1].p50.seconds / rows[0].p50.seconds
        let overKDF = (rows[2].p50 - rows[3].p50).seconds * 1_000
        print(
            """

            Goals: a read through a reused context within 1.2× a plain read: measured \(String(format: "%.2f", reuse))×. \
            Authentication with the passcode plus the read within the KDF's time + 10 ms: measured the KDF + \
            \(String(format: "%.2f", overKDF)) ms.
            """)
    }
    if requested.isEmpty || requested.contains("keys") {
        let figures = try KeysBenchmark.run(in: scratch, operations: quick ? 300 : 2_000)
        print("\n### Keys: `SecKey` next to swift-crypto called directly\n")
        print("| operation | p50 | p90 |")
        print("| --- | --- | --- |")
        for row in figures.rows { print("| \(row.operation) | \(Measurement.format(row.p50)) | \(Measurement.format(row.p90)) |") }
        print(KeysReport.goals(figures))
    }
    if requested.isEmpty || requested.contains("certificates") {
        let figures = try CertificatesBenchmark.run(in: scratch, operations: quick ? 300 : 2_000, processRuns: quick ? 50 : 200)
        print("\n### Certificates, trust and identities: Coffer next to swift-certificates and openssl (alternating blocks)\n")
        print("| operation | p50 | p90 | p99 |")
        print("| --- | --- | --- | --- |")
        for row in figures.rows {
            print("| \(row.operation) | \(Measurement.format(row.p50)) | \(Measurement.format(row.p90)) | \(Measurement.format(row.p99)) |")
        }
        print(CertificatesReport.goals(figures))
    }
    if requested.isEmpty || requested.contains("daemon") {
        let daemonSize = quick ? 10_000 : 100_000
        let (rows, attack) = try DaemonBenchmark.run(in: scratch, size: daemonSize, operations: quick ? 300 : 2_000)
        table("Through the daemon (cofferd on a Unix socket, \(daemonSize) items)", rows)
        print(DaemonReport.goals(rows))
        if let attack { print(DaemonReport.attack(attack)) }
    }
    if requested.isEmpty || requested.contains("files") {
        let size = quick ? 256 << 20 : 1 << 30
        let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
        let folder = (FileManager.default.fileExists(atPath: shm.path) ? shm : scratch).appendingPathComponent("coffer-files-\(UUID().uuidString)")
        let rows = try FileProtectionBenchmark.run(size: size, rounds: quick ? 3 : 5, in: folder)
        print(FileProtectionBenchmark.report(rows, size: size))
    }
    if requested.isEmpty || requested.contains("backup") {
        let count = quick ? 10_000 : 100_000
        print(BackupBenchmark.report(try BackupBenchmark.run(in: scratch, count: count, rounds: quick ? 1 : 3), count: count))
    }
    if requested.isEmpty || requested.contains("ssh-agent") {
        let rows = try SSHAgentBenchmark.run(in: scratch, operations: quick ? 500 : 5_000, processRuns: quick ? 40 : 200)
        print("\n### SSH agent: `coffer ssh-agent` next to OpenSSH's `ssh-agent` (software keys added with `ssh-add`, alternating blocks)\n")
        print("| operation | p50 | p90 |")
        print("| --- | --- | --- |")
        for row in rows { print("| \(row.operation) | \(Measurement.format(row.p50)) | \(Measurement.format(row.p90)) |") }
        print(SSHAgentBenchmark.goals(rows))
    }
    if requested.contains("daemon-cpu") {
        // Wall and CPU time per find in both processes, embedded, one after another and concurrent, 1 000 items.
        let rows = try DaemonCPUBenchmark.run(in: scratch, seconds: quick ? 2 : 5, rounds: quick ? 2 : 3)
        print("\n### Where a daemon find's time goes: wall and CPU time per find, in both processes (1000 items)\n")
        print(DaemonCPUBenchmark.report(rows))
    }
    if requested.contains("daemon-latency") {
        // The daemon's round trips of one client only, 10 000 items: a short run for comparing builds.
        let (rows, _) = try DaemonBenchmark.run(in: scratch, size: 10_000, operations: quick ? 1_000 : 3_000, latencyOnly: true)
        table("Through the daemon, one client (cofferd on a Unix socket, 10000 items)", rows)
        print(DaemonReport.goals(rows))
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
