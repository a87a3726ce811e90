import Engine
import Foundation
import KeychainClient
import KeychainModel
import KeychainSelection
import Logging
import Query
import SyncClient
import SyncServer
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Many simulated devices against one PostgreSQL server: `accounts` accounts of `devicesPerAccount` devices, each a
/// keychain of its own with its background sync running (one listening connection each), while items are added on
/// random devices at `rate` per second for `duration`. Every add must reach every other device of its account.
struct LoadRun {
    let admin: ServerEndpoint
    let adminPassword: String
    let accounts: Int
    let devicesPerAccount: Int
    let rate: Int
    let duration: Duration
    /// The server's data folder, whose `postmaster.pid` names the processes whose CPU time is measured.
    let dataFolder: String

    /// One simulated device.
    struct Device: Sendable {
        let account: Int
        let client: any KeychainClient
        let sync: KeychainSync
    }

    /// What the run measured.
    struct Report {
        var changes = 0
        var seconds = 0.0
        var propagations: [Double] = []
        var lost = 0
        var serverCPUSeconds = 0.0
        var clientCPUSeconds = 0.0
        var setupSeconds = 0.0
    }

    func run(in scratch: URL) async throws -> Report {
        raiseFileLimit()
        var report = Report()
        let clock = ContinuousClock()
        let setupStart = clock.now
        let devices = try await makeDevices(in: scratch)
        report.setupSeconds = seconds(clock.now - setupStart)

        let board = ArrivalBoard(deviceCount: devices.count)
        let tasks = devices.enumerated().map { index, device in
            let (events, continuation) = AsyncStream.makeStream(of: SyncEvent.self)
            let background = Task.detached { await BackgroundSync(sync: device.sync, events: continuation).run() }
            let watcher = Task.detached {
                for await event in events where event != .started { await board.check(device: index, client: device.client) }
            }
            return (background, watcher)
        }
        // Every device connected and ran once before the load starts.
        try await Task.sleep(for: .seconds(Double(devices.count) / 50 + 5))

        let serverBefore = serverCPUSeconds()
        let clientBefore = processCPUSeconds()
        let start = clock.now
        let total = rate * Int(duration.components.seconds)
        for change in 0..<total {
            try await Task.sleep(until: start + .seconds(Double(change) / Double(rate)), clock: clock)
            let writer = Int.random(in: 0..<devices.count)
            let name = "load-\(change)"
            let query: QueryDictionary = [
                "class": "genp", "svce": "load", "acct": .string(name), "sync": true, "v_Data": .data(Data("value-\(change)".utf8)),
            ]
            _ = try await devices[writer].client.add(query)
            let peers = devices.indices.filter { $0 != writer && devices[$0].account == devices[writer].account }
            board.expect(name, on: peers, since: clock.now)
        }
        report.changes = total
        report.seconds = seconds(clock.now - start)
        // Convergence: every device has every item of its account, or two minutes have passed.
        let deadline = clock.now + .seconds(120)
        while board.outstandingCount > 0, clock.now < deadline { try await Task.sleep(for: .seconds(1)) }
        for index in devices.indices { await board.check(device: index, client: devices[index].client) }
        report.serverCPUSeconds = serverCPUSeconds() - serverBefore
        report.clientCPUSeconds = processCPUSeconds() - clientBefore
        report.lost = board.outstandingCount
        report.propagations = board.latencies
        for (background, watcher) in tasks {
            background.cancel()
            watcher.cancel()
        }
        return report
    }

    /// The accounts and their devices: the first device of each account founds it, the others join with its recovery
    /// key, and each sends and receives what is there.
    private func makeDevices(in scratch: URL) async throws -> [Device] {
        let connection = try await SyncServerConnection.connect(to: admin, password: adminPassword)
        let administration = SyncServerAdministration(connection)
        try await administration.prepare()
        var devices: [Device] = []
        for account in 0..<accounts {
            let added = try await administration.addAccount()
            let endpoint = ServerEndpoint(address: admin.address, username: added.role, database: admin.database, tls: admin.tls)
            var recovery: RecoveryKey?
            for number in 0..<devicesPerAccount {
                let folder = KeychainFolder(url: scratch.appendingPathComponent("a\(account)/d\(number)"))
                let client = EmbeddedKeychain(
                    folder: folder, caller: CallerContext(accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup)),
                    environment: [:])
                let sync = KeychainSync(
                    engine: try client.service.engine(), logger: Logger(label: "load", factory: { _ in SwiftLogNoOpLogHandler() }))
                if let recovery {
                    try await sync.join(server: endpoint, password: added.password, deviceName: "d\(number)", recoveryKey: recovery)
                } else {
                    recovery = try RecoveryKey(text: try await sync.setUp(server: endpoint, password: added.password, deviceName: "d0").text)
                }
                devices.append(Device(account: account, client: client, sync: sync))
            }
        }
        await connection.close()
        return devices
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The CPU time of the server's processes (the postmaster and its children, which live as long as their
    /// connections).
    private func serverCPUSeconds() -> Double {
        guard let pidFile = try? String(contentsOfFile: dataFolder + "/postmaster.pid", encoding: .utf8),
            let postmaster = pidFile.split(separator: "\n").first.map(String.init)
        else { return .nan }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else {
                continue
            }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the command: state (0), parent (1), …, user time (11), system time (12).
            guard fields.count > 12, entry == postmaster || fields[1] == postmaster else { continue }
            total += (Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)
        }
        return total / ticks
    }

    private func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Each device's keychains, connections and SQLite files need more descriptors than the default soft limit.
    private func raiseFileLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// The adds each device has still to receive, and how long the received ones took.
final class ArrivalBoard: Sendable {
    private struct State {
        var outstanding: [[String: ContinuousClock.Instant]]
        var latencies: [Double] = []
    }

    private let state: Mutex<State>

    init(deviceCount: Int) { state = Mutex(State(outstanding: Array(repeating: [:], count: deviceCount))) }

    /// `name`, added at `since`, must reach `devices`.
    func expect(_ name: String, on devices: [Int], since: ContinuousClock.Instant) {
        state.withLock { state in for device in devices { state.outstanding[device][name] = since } }
    }

    var outstandingCount: Int { state.withLock { $0.outstanding.reduce(0) { $0 + $1.count } } }
    var latencies: [Double] { state.withLock { $0.latencies } }

    /// Looks for what `device` is waiting for; each found item's latency is its arrival time now.
    func check(device: Int, client: any KeychainClient) async {
        let waiting = state.withLock { $0.outstanding[device] }
        guard !waiting.isEmpty else { return }
        var arrived: [(String, Double)] = []
        for (name, since) in waiting {
            let query: QueryDictionary = ["class": "genp", "svce": "load", "acct": .string(name), "sync": true, "r_Attributes": true]
            if case .some(.some) = try? await client.copyMatching(query) {
                let elapsed = ContinuousClock.now - since
                arrived.append((name, Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15))
            }
        }
        state.withLock { state in
            for (name, latency) in arrived where state.outstanding[device].removeValue(forKey: name) != nil { state.latencies.append(latency) }
        }
    }
}
