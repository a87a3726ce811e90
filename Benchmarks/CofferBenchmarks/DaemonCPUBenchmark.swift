import Foundation
import KeychainClient

#if canImport(Glibc)
import Glibc
#endif

/// Where a find's time goes when it is made through `cofferd`: for finds (data) on 1 000-item keychains
/// (``FilledKeychainPair``), the wall time per find next to the CPU time each process spends on it — an embedded
/// find and a blocking daemon find for scale, then batches of 8 through the daemon awaited one after another, then
/// batches of 8 from 8 concurrent tasks, as the daemon's concurrency goal compares them.
///
/// CPU time is what the kernel charges each process (user and system, every thread), so it counts what instruction
/// counts cannot: system calls, waking and switching threads, and threads that poll for an answer. "Cores busy" is
/// both processes' CPU time over the wall time: 2.0 is both cores of this machine.
enum DaemonCPUBenchmark {
    /// How one way of finding was measured, over one stretch of time.
    struct Row {
        /// The way of finding.
        let mode: String
        /// Finds made.
        let finds: Int
        /// Wall time per find.
        let wall: Duration
        /// This process's CPU time per find.
        let clientCPU: Duration
        /// cofferd's CPU time per find.
        let daemonCPU: Duration

        /// Both processes' CPU time over the wall time.
        var coresBusy: Double { (clientCPU + daemonCPU).seconds / wall.seconds }
    }

    /// Measures each way of finding for `seconds`, in turns, `rounds` times.
    static func run(in scratch: URL, seconds: Int, rounds: Int) throws -> [Row] {
        let pair = try FilledKeychainPair(in: scratch, name: "daemon-cpu")
        defer { pair.stop() }
        let (embedded, client) = (pair.embedded, pair.client)
        var accounts = ItemsBenchmark.RandomAccounts(count: 1_000)
        let modes: [(name: String, batch: ([Int]) throws -> Void)] = [
            ("embedded find, one after another", { batch in
                for account in batch { _ = try embedded.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data")) }
            }),
            ("daemon find (blocking), one after another", { batch in
                for account in batch { _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data")) }
            }),
            ("daemon: 8 finds (async), one after another", { try FindBatches.oneAfterAnother(client, accounts: $0) }),
            ("daemon: 8 finds (async), from 8 concurrent tasks", { try FindBatches.concurrently(client, accounts: $0) }),
        ]
        for mode in modes { try mode.batch((0..<8).map { _ in accounts.next() }) }
        var rows: [Row] = []
        for _ in 0..<rounds {
            for mode in modes {
                let started = (wall: ContinuousClock.now, client: try ownCPU(), daemon: try daemonCPU(pair.daemon.pid))
                let end = started.wall + .seconds(seconds)
                var finds = 0
                while ContinuousClock.now < end {
                    try mode.batch((0..<8).map { _ in accounts.next() })
                    finds += 8
                }
                rows.append(Row(
                    mode: mode.name, finds: finds, wall: (ContinuousClock.now - started.wall) / finds,
                    clientCPU: (try ownCPU() - started.client) / finds, daemonCPU: (try daemonCPU(pair.daemon.pid) - started.daemon) / finds))
            }
        }
        return rows
    }

    /// The rows as a Markdown table, then the concurrent over sequential ratio of each round.
    static func report(_ rows: [Row]) -> String {
        var lines = [
            "| way of finding | finds | wall per find | this process's CPU per find | cofferd's CPU per find | cores busy |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for row in rows {
            lines.append(
                "| \(row.mode) | \(row.finds) | \(Measurement.format(row.wall)) | \(Measurement.format(row.clientCPU)) | "
                    + "\(Measurement.format(row.daemonCPU)) | \(String(format: "%.2f", row.coresBusy)) |")
        }
        let sequential = rows.filter { $0.mode.hasPrefix("daemon: 8 finds") && $0.mode.hasSuffix("one after another") }
        let concurrent = rows.filter { $0.mode.hasSuffix("concurrent tasks") }
        let ratios = zip(concurrent, sequential).map { String(format: "%.2f×", $0.wall.seconds / $1.wall.seconds) }
        lines.append("")
        lines.append("8 concurrent finds over the same 8 one after another, each round: \(ratios.joined(separator: ", ")) (goal: 0.6×).")
        return lines.joined(separator: "\n")
    }

    /// This process's user and system CPU time so far.
    private static func ownCPU() throws -> Duration {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else {
            throw BenchmarkProcesses.Failure(description: "getrusage failed: \(String(cString: strerror(errno)))")
        }
        return duration(usage.ru_utime) + duration(usage.ru_stime)
    }

    private static func duration(_ time: timeval) -> Duration {
        .seconds(time.tv_sec) + .microseconds(time.tv_usec)
    }

    /// cofferd's user and system CPU time so far, at the kernel's tick (10 ms here: each stretch lasts seconds).
    private static func daemonCPU(_ pid: pid_t) throws -> Duration {
        .seconds(Double(try DaemonBenchmark.cpuTicks(of: pid)) / Double(sysconf(Int32(_SC_CLK_TCK))))
    }
}
