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
    /// A way of finding.
    enum Way: CaseIterable {
        case embedded, daemonBlocking, daemonAsync, daemonConcurrent

        /// How the report names it.
        var title: String {
            switch self {
            case .embedded: "embedded find, one after another"
            case .daemonBlocking: "daemon find (blocking), one after another"
            case .daemonAsync: "daemon: 8 finds (async), one after another"
            case .daemonConcurrent: "daemon: 8 finds (async), from 8 concurrent tasks"
            }
        }
    }

    /// How one way of finding was measured, over one stretch of time.
    struct Row {
        /// The way of finding.
        let way: Way
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
        func batch(_ way: Way, _ accounts: [Int]) throws {
            switch way {
            case .embedded: try FindBatches.blocking(embedded, accounts: accounts)
            case .daemonBlocking: try FindBatches.blocking(client, accounts: accounts)
            case .daemonAsync: try FindBatches.oneAfterAnother(client, accounts: accounts)
            case .daemonConcurrent: try FindBatches.concurrently(client, accounts: accounts)
            }
        }
        var accounts = ItemsBenchmark.RandomAccounts(count: 1_000)
        for way in Way.allCases { try batch(way, (0..<8).map { _ in accounts.next() }) }
        var rows: [Row] = []
        for _ in 0..<rounds {
            for way in Way.allCases {
                let started = (wall: ContinuousClock.now, client: try ownCPU(), daemon: try daemonCPU(pair.daemon.pid))
                let end = started.wall + .seconds(seconds)
                var finds = 0
                while ContinuousClock.now < end {
                    try batch(way, (0..<8).map { _ in accounts.next() })
                    finds += 8
                }
                rows.append(
                    Row(
                        way: way, finds: finds, wall: (ContinuousClock.now - started.wall) / finds,
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
                "| \(row.way.title) | \(row.finds) | \(Measurement.format(row.wall)) | \(Measurement.format(row.clientCPU)) | "
                    + "\(Measurement.format(row.daemonCPU)) | \(String(format: "%.2f", row.coresBusy)) |")
        }
        let sequential = rows.filter { $0.way == .daemonAsync }
        let concurrent = rows.filter { $0.way == .daemonConcurrent }
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
