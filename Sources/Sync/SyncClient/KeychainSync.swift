import CofferRuntime
import Engine
import Foundation
import KeychainModel
import ItemStore
import Keystore
import Logging
import SyncFormat
import SyncServer

/// Sync for one keychain: joins it to an account on a PostgreSQL server (``setUp(server:password:deviceName:)``,
/// ``join(server:password:deviceName:recoveryKey:)``) and keeps it in step with the account's other devices
/// (``syncNow()``). Everything leaves this device sealed under the account's keys; the server stores ciphertext.
public struct KeychainSync: Sendable {
    /// The keychain's engine, which `coffer sync` also records its changes of the account's devices in.
    public let engine: KeychainEngine
    let logger: Logger
    /// Where the engine's blocking calls of a sync run go, off the cooperative pool.
    let workers = WorkerThreads(maximum: 2)

    /// Sync for the keychain `engine` opens.
    public init(engine: KeychainEngine, logger: Logger = Logger(label: "coffer.sync")) {
        self.engine = engine
        self.logger = logger
    }

    /// The keystore of the keychain (its lock state and passcode).
    public var keystore: Keystore { engine.keystore }

    /// Whether this keychain has joined an account.
    public var isSetUp: Bool {
        get throws(SyncError) { try LocalAccount.isSetUp(engine) }
    }

    /// Founds a new account on `server` with this keychain as its first device, and marks the items that sync to be
    /// sent by the next run (``syncNow(progress:)``, or the daemon's background sync). Returns
    /// the account's recovery key, which is shown once and stored nowhere.
    public func setUp(server: ServerEndpoint, password: String, deviceName: String) async throws(SyncError) -> RecoveryKey {
        guard try !isSetUp else { throw .alreadySetUp }
        let (account, recovery) = try await connected(server, password) { (session) async throws(SyncError) in
            try await SyncEnrollment.found(session: session, endpoint: server, password: password, deviceName: deviceName)
        }
        try SyncError.mapping { try engine.startSyncing(settings: try account.settings(sealedBy: engine)) }
        return recovery
    }

    /// Joins this keychain to the account on `server` that `recoveryKey` belongs to.
    public func join(server: ServerEndpoint, password: String, deviceName: String, recoveryKey: RecoveryKey) async throws(SyncError) {
        guard try !isSetUp else { throw .alreadySetUp }
        let account = try await connected(server, password) { (session) async throws(SyncError) in
            try await SyncEnrollment.join(
                session: session, endpoint: server, password: password, deviceName: deviceName, recoveryKey: recoveryKey)
        }
        try SyncError.mapping { try engine.startSyncing(settings: try account.settings(sealedBy: engine)) }
    }

    /// Brings this keychain and the server in step: what other devices wrote is applied here, what was written here
    /// is sent. `progress` is told the counts so far as pages are pulled, applied and sent.
    public func syncNow(progress: (@Sendable (SyncReport) -> Void)? = nil) async throws(SyncError) -> SyncReport {
        let account = try LocalAccount.load(from: engine)
        return try await connected(account.endpoint, account.password) { (session) async throws(SyncError) in
            var replica = SyncReplica(engine: engine, account: account, session: session, logger: logger, workers: workers)
            replica.progress = progress
            try await replica.run()
            return replica.report
        }
    }

    /// What this device knows of its account without asking the server.
    public func status() throws(SyncError) -> SyncStatus {
        let account = try LocalAccount.load(from: engine)
        let counts = try SyncError.mapping { try engine.syncLedgerCounts() }
        return SyncStatus(
            server: account.endpoint.dsn, device: account.device.publicIdentity.name, deviceID: account.device.publicIdentity.id,
            keyVersion: account.keys.current, pending: counts.pending, mirrored: counts.mirrored, incoming: counts.incoming,
            conflicts: counts.conflicts)
    }

    /// The items conflicts removed in the last 30 days, with their data (the keychain must have been unlocked since
    /// it started).
    public func conflicts() throws(SyncError) -> [SyncConflict] {
        try SyncError.mapping { try engine.syncConflicts() }
    }

    /// Stops syncing this keychain: it forgets the account (the items stay, and the account keeps this device
    /// until another device removes it).
    public func leave() throws(SyncError) {
        try SyncError.mapping { try engine.stopSyncing() }
    }

    func connected<T: Sendable>(
        _ endpoint: ServerEndpoint, _ password: String, _ body: (SyncServerSession) async throws(SyncError) -> T
    ) async throws(SyncError) -> T {
        let connection: SyncServerConnection
        do {
            connection = try await SyncServerConnection.connect(to: endpoint, password: password)
        } catch {
            throw .server(error.description)
        }
        do {
            let result = try await body(SyncServerSession(connection))
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }
}

/// What a device knows of its sync account.
public struct SyncStatus: Sendable, Equatable, Codable {
    /// The server, as a connection URI without password.
    public let server: String
    /// This device's name in the account.
    public let device: String
    /// This device's id.
    public let deviceID: UUID
    /// The account key version in use.
    public let keyVersion: Int64
    /// Local writes not sent yet.
    public let pending: Int
    /// Records this device has seen.
    public let mirrored: Int
    /// Records pulled and not applied yet (waiting for an unlock).
    public let incoming: Int
    /// Conflicts kept.
    public let conflicts: Int
}
