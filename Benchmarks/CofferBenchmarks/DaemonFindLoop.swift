import Foundation
import KeychainSelection
import KeychainModel
import Query

#if canImport(Glibc)
import Glibc
#endif

/// Finds (data) on 1 000-item keychains (``FilledKeychainPair``), in turns of 100: on an embedded keychain, then
/// through `cofferd`; then no-op round trips through `cofferd`: steady loops for profilers, printing how many of each
/// they made. Each is one call of ``countedLocalLookup(_:account:)``, ``countedRemoteLookup(_:account:)`` or
/// ``countedNoOpTrip(_:)``, so that an instruction counter (`Benchmarks/instructions.sh`) gives the cost of one in
/// this process.
enum DaemonFindLoop {
    /// Runs each loop for `seconds`. With `concurrent`, the daemon's finds come in batches of 8 from 8 concurrent
    /// tasks.
    static func run(in scratch: URL, seconds: Int, concurrent: Bool) throws {
        let pair = try FilledKeychainPair(in: scratch, name: "daemon-loop")
        defer { pair.stop() }
        let (embedded, client) = (pair.embedded, pair.client)
        for account in 0..<100 {
            _ = try embedded.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data"))
            _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data"))
        }
        let counted = CountedDaemon(pid: pair.daemon.pid)
        try counted.zero()
        var accounts = ItemsBenchmark.RandomAccounts(count: 1_000)
        var (embeddedFinds, daemonFinds, roundTrips) = (0, 0, 0)
        var end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            for _ in 0..<100 { try countedLocalLookup(embedded, account: accounts.next()) }
            embeddedFinds += 100
            if concurrent {
                for _ in 0..<12 { try FindBatches.concurrently(client, accounts: (0..<8).map { _ in accounts.next() }) }
                daemonFinds += 96
            } else {
                for _ in 0..<100 { try countedRemoteLookup(client, account: accounts.next()) }
                daemonFinds += 100
            }
        }
        try counted.dump("finds")
        end = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < end {
            for _ in 0..<100 { try countedNoOpTrip(client) }
            roundTrips += 100
        }
        try counted.dump("round trips")
        print(
            "daemon loop: \(embeddedFinds) embedded finds, \(daemonFinds) through the daemon\(concurrent ? " (8 concurrent tasks)" : ""), then \(roundTrips) no-op round trips"
        )
    }

    /// With `COFFER_BENCH_COUNTED_DAEMON` set, the daemon runs under callgrind: its counts are zeroed once the
    /// keychains are filled and warm, and dumped after each part of the loop, so that each dump holds one kind of
    /// request alone.
    private struct CountedDaemon {
        let pid: pid_t
        let enabled = ProcessInfo.processInfo.environment["COFFER_BENCH_COUNTED_DAEMON"] != nil

        func zero() throws { try control("--zero") }
        func dump(_ part: String) throws { try control("--dump=\(part)") }

        private func control(_ option: String) throws {
            guard enabled else { return }
            try BenchmarkProcesses.run(["/usr/bin/callgrind_control", option, String(pid)], environment: ProcessInfo.processInfo.environment)
        }
    }

    // The counted calls are named with words that no enclosing name uses, so that each keeps its words whole in its
    // mangled name, where `Benchmarks/instructions.sh` looks for them (`…DaemonFindLoopO…counted…`).

    /// One find (data) on the embedded keychain.
    @inline(never)
    static func countedLocalLookup(_ keychain: EmbeddedKeychain, account: Int) throws {
        _ = try keychain.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data"))
    }

    /// One find (data) through the daemon. Its body is ``countedLocalLookup(_:account:)``'s but for the type, so LLVM
    /// would merge the two into one function and neither would have a name of its own to count; a different
    /// optimisation attribute keeps them apart (the calls inside are compiled as usual).
    @inline(never) @_optimize(size)
    static func countedRemoteLookup(_ client: DaemonKeychain, account: Int) throws {
        _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data"))
    }

    /// One round trip through the daemon that does no work (locking a keychain that has no passcode), as the daemon
    /// suite's.
    @inline(never)
    static func countedNoOpTrip(_ client: DaemonKeychain) throws {
        try client.blocking.lock()
    }
}
