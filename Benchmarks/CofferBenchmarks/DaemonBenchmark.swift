import Daemon
import Engine
import Foundation
import KeychainSelection
import KeychainModel
import Keystore
import ProgramIdentity
import Query

#if canImport(Glibc)
import Glibc
#endif

/// Round trips through `cofferd` (the release binary beside this one), on a keychain pre-filled with
/// `size` items, next to the same operations on the embedded keychain.
enum DaemonBenchmark {
    /// With `latencyOnly`, only the round trips of one client (no 8-client, idle or attack parts): a
    /// short run for comparing builds.
    static func run(
        in scratch: URL, size: Int, operations: Int, latencyOnly: Bool = false
    ) throws -> (rows: [ItemsBenchmark.Row], attack: DaemonAttackBenchmark.Report?) {
        let state = scratch.appendingPathComponent("daemon-state")
        let folder = KeychainFolder(url: state.appendingPathComponent(String(getuid())))
        // This program is unregistered, so the daemon gives it the group derived from its path: fill that group.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let group = AppRegistry.unregisteredGroup(forPath: executable)
        let embedded = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .list([group])))
        try ItemsBenchmark.populate(embedded, count: size)

        // The per-user connection cap raised, so that the attack below really holds 1 000 connections.
        let daemon = try BenchmarkDaemon(
            state: state, socket: scratch.appendingPathComponent("cofferd.socket").path, arguments: ["--max-connections-per-user", "1100"])
        defer { daemon.stop() }
        let socket = daemon.socket
        let client = DaemonKeychain(socketPath: socket)
        // The three figures the goal compares are taken in turns of 50, so that the machine's slow spells hit all alike.
        var accounts = ItemsBenchmark.RandomAccounts(count: size)
        let compared = try ItemsBenchmark.interleaved(
            operations,
            [
                { _ = try embedded.blocking.copyMatching(ItemsBenchmark.findQuery(accounts.next(), returning: "r_Data")) },
                { try client.blocking.lock() },
                { _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(accounts.next(), returning: "r_Data")) },
            ])
        var rows: [ItemsBenchmark.Row] = [
            .init(size: size, operation: "embedded: find (data), same keychain", samples: compared[0]),
            .init(size: size, operation: "daemon: lock (a round trip that does no work)", samples: compared[1]),
            .init(size: size, operation: "daemon: find (data)", samples: compared[2]),
        ]
        var next = size
        let writes = min(operations, 300)
        rows.append(
            .init(
                size: size, operation: "daemon: add (durable)",
                samples: try ItemsBenchmark.timed(writes) {
                    _ = try client.blocking.add(ItemsBenchmark.item(next))
                    next += 1
                }))
        var victim = size
        rows.append(
            .init(
                size: size, operation: "daemon: delete",
                samples: try ItemsBenchmark.timed(writes) {
                    try client.blocking.delete(ItemsBenchmark.findQuery(victim, returning: nil))
                    victim += 1
                }))
        rows += try concurrentFinds(client, size: size, batches: max(operations / 8, 50))
        if latencyOnly { return (rows, nil) }
        rows.append(DaemonAttackBenchmark.eightClients(socket: socket, size: size, findsPerClient: operations / 8))
        rows.append(try idleCPU(socket: socket, daemon: daemon.pid, seconds: operations >= 2_000 ? 60 : 10))
        let attack = try DaemonAttackBenchmark.underAttack(
            socket: socket, daemon: daemon.pid, client: client, size: size, operations: operations)
        return (rows, attack)
    }

    /// Eight finds from eight tasks of one process at once (one multiplexed connection), next to the same
    /// eight awaited one after another; each sample is a batch of eight.
    private static func concurrentFinds(_ client: DaemonKeychain, size: Int, batches: Int) throws -> [ItemsBenchmark.Row] {
        var accounts = ItemsBenchmark.RandomAccounts(count: size)
        let sequential = try ItemsBenchmark.timed(batches) {
            try FindBatches.oneAfterAnother(client, accounts: (0..<8).map { _ in accounts.next() })
        }
        let concurrent = try ItemsBenchmark.timed(batches) {
            try FindBatches.concurrently(client, accounts: (0..<8).map { _ in accounts.next() })
        }
        return [
            .init(size: size, operation: "daemon: 8 finds (async), one after another", samples: sequential),
            .init(size: size, operation: "daemon: 8 finds (async), from 8 concurrent tasks", samples: concurrent),
        ]
    }

    /// cofferd's CPU time while 16 connections stay open and idle for `seconds`, as a share of one core
    /// (the one sample is in per-mille of a core, carried as a duration of that many microseconds).
    private static func idleCPU(socket: String, daemon: Int32, seconds: Int) throws -> ItemsBenchmark.Row {
        let clients = (0..<16).map { _ in DaemonKeychain(socketPath: socket) }
        for client in clients { _ = try client.blocking.lockStatus() }
        Thread.sleep(forTimeInterval: 1)  // past the daemon's short polling for a next request
        let before = try cpuTicks(of: daemon)
        Thread.sleep(forTimeInterval: Double(seconds))
        let used = Double(try cpuTicks(of: daemon) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
        withExtendedLifetime(clients) {}
        let perMille = used / Double(seconds) * 1_000
        return .init(
            size: 16, operation: "idle: cofferd CPU with 16 open idle connections over \(seconds) s (‰ of a core, as µs)",
            samples: [.microseconds(perMille)])
    }

    /// User plus system CPU ticks of a process, from `/proc/PID/stat`.
    static func cpuTicks(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!
    }
}

/// Runs an async body to its end from synchronous benchmark code.
func blockUntilDone(_ body: @escaping @Sendable () async throws -> Void) throws {
    let done = DispatchSemaphore(value: 0)
    let failure = LockedError()
    Task {
        do { try await body() } catch { failure.set(error) }
        done.signal()
    }
    done.wait()
    if let error = failure.value { throw error }
}

/// An error handed from a task to the thread that waits for it.
final class LockedError: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    func set(_ error: any Error) { lock.withLock { stored = error } }
    var value: (any Error)? { lock.withLock { stored } }
}
