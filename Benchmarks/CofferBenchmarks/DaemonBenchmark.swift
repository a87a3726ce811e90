import Daemon
import Engine
import Foundation
import KeychainClient
import KeychainModel
import Keystore
import Query

#if canImport(Glibc)
import Glibc
#endif

/// Round trips through `cofferd` (the release binary beside this one), on a keychain pre-filled with
/// `size` items, next to the same operations on the embedded keychain.
enum DaemonBenchmark {
    static func run(in scratch: URL, size: Int, operations: Int) throws -> [ItemsBenchmark.Row] {
        let state = scratch.appendingPathComponent("daemon-state")
        let folder = KeychainFolder(url: state.appendingPathComponent(String(getuid())))
        // This program is unregistered, so the daemon gives it the group derived from its path: fill that group.
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let group = AppRegistry.unregisteredGroup(forPath: executable)
        let embedded = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .list([group])))
        try ItemsBenchmark.populate(embedded, count: size)

        let daemonPath = URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("cofferd").path
        let socket = scratch.appendingPathComponent("cofferd.socket").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: daemonPath)
        process.arguments = ["--state-dir", state.path, "--socket", socket]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        let client = DaemonKeychain(socketPath: socket)
        if let seconds = ProcessInfo.processInfo.environment["COFFER_BENCH_DAEMON_LOOP"].flatMap(Int.init) {
            // For profilers: finds through the daemon for `seconds`, nothing measured.
            let end = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < end {
                for _ in 0..<100 { _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(Int.random(in: 0..<size), returning: "r_Data")) }
            }
        }
        var rows: [ItemsBenchmark.Row] = []
        var accounts = ItemsBenchmark.RandomAccounts(count: size)
        rows.append(.init(size: size, operation: "daemon: lock (a round trip that does no work)", samples: try ItemsBenchmark.timed(operations) {
            try client.blocking.lock()
        }))
        rows.append(.init(size: size, operation: "daemon: find (data)", samples: try ItemsBenchmark.timed(operations) {
            _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(accounts.next(), returning: "r_Data"))
        }))
        var next = size
        let writes = min(operations, 300)
        rows.append(.init(size: size, operation: "daemon: add (durable)", samples: try ItemsBenchmark.timed(writes) {
            _ = try client.blocking.add(ItemsBenchmark.item(next))
            next += 1
        }))
        var victim = size
        rows.append(.init(size: size, operation: "daemon: delete", samples: try ItemsBenchmark.timed(writes) {
            try client.blocking.delete(ItemsBenchmark.findQuery(victim, returning: nil))
            victim += 1
        }))
        return rows
    }
}
