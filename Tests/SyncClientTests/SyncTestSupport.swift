import CofferTestSupport
import KeychainSelection
import Engine
import Foundation
import KeychainModel
import Logging
import PostgresFixture
import Query
import SyncClient
import TestProcesses
@testable import SyncServer

/// One device of a test account: a keychain in a folder of its own and sync over it.
struct TestDevice {
    let folder: KeychainFolder
    let keychain: EmbeddedKeychain
    let sync: KeychainSync

    init(folder: KeychainFolder? = nil) throws {
        let folder = folder ?? KeychainFolder(url: FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-\(UUID().uuidString)/keychain"))
        self.folder = folder
        keychain = EmbeddedKeychain(
            folder: folder, caller: CallerContext(accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup)), environment: [:])
        sync = KeychainSync(engine: try keychain.service.engine(), logger: Logger(label: "test.sync", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    func add(_ query: QueryDictionary) throws(KeychainStatus) { _ = try keychain.statusCalls.add(query) }

    /// Deletes the keychain's folder (and the temporary folder made for it).
    func removeFolder() {
        let url = folder.url.lastPathComponent == "keychain" ? folder.url.deletingLastPathComponent() : folder.url
        try? FileManager.default.removeItem(at: url)
    }
    func update(_ query: QueryDictionary, _ changes: QueryDictionary) throws(KeychainStatus) {
        try keychain.statusCalls.update(query, attributesToUpdate: changes)
    }
    func delete(_ query: QueryDictionary) throws(KeychainStatus) { try keychain.statusCalls.delete(query) }

    /// The data of the item `query` finds, or the status that says why there is none.
    func data(_ query: QueryDictionary) -> Result<Data, KeychainStatus> {
        var query = query
        query.entries["r_Data"] = true
        do {
            guard case .data(let bytes)? = try keychain.statusCalls.copyMatching(query) else { return .failure(.internal) }
            return .success(bytes)
        } catch {
            return .failure(error)
        }
    }
}

/// A PostgreSQL cluster with the sync schema and one account.
struct TestSyncServer {
    let cluster: PostgresServer
    let account: SyncAccount
    let endpoint: ServerEndpoint

    /// A new cluster (serving TLS with `tls`' certificate and key, both PEM), prepared, with one account.
    static func start(tls: (certificatePEM: String, keyPEM: String)? = nil) async throws -> TestSyncServer {
        let cluster = try PostgresServer(tls: tls)
        let admin = try await SyncServerConnection.connect(to: superuserEndpoint(cluster), password: cluster.superuserPassword)
        let administration = SyncServerAdministration(admin)
        try await administration.prepare()
        let account = try await administration.addAccount()
        await admin.close()
        let endpoint = ServerEndpoint(address: .unixSocket(path: cluster.unixSocketPath), username: account.role, database: cluster.database)
        return TestSyncServer(cluster: cluster, account: account, endpoint: endpoint)
    }

    static func superuserEndpoint(_ cluster: PostgresServer) -> ServerEndpoint {
        ServerEndpoint(address: .unixSocket(path: cluster.unixSocketPath), username: cluster.superuser, database: cluster.database)
    }

    /// Runs `body` connected as the cluster's superuser: what a hostile server operator can do.
    func asOperator<T: Sendable>(_ body: (SyncServerConnection) async throws -> T) async throws -> T {
        let connection = try await SyncServerConnection.connect(to: Self.superuserEndpoint(cluster), password: cluster.superuserPassword)
        do {
            let result = try await body(connection)
            await connection.close()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    func stop() { cluster.stop() }
}

/// A generic password query.
func genp(_ service: String, _ account: String, _ extra: QueryDictionary = [:]) -> QueryDictionary {
    var query: QueryDictionary = ["class": "genp", "svce": .string(service), "acct": .string(account)]
    for (key, value) in extra.entries { query.entries[key] = value }
    return query
}

func secret(_ text: String) -> KeychainValue { .data(Data(text.utf8)) }

/// A server with an account, a founding device `laptop` (prepared by `prepare` before it sets the account up) and a
/// `desktop` joined with the recovery key; everything stopped after `body`.
func withTwoDevices(
    prepare: (TestDevice) throws -> Void = { _ in }, _ body: (TestSyncServer, TestDevice, TestDevice) async throws -> Void
) async throws {
    let server = try await TestSyncServer.start()
    defer { server.stop() }
    let laptop = try TestDevice()
    defer { laptop.removeFolder() }
    try prepare(laptop)
    let recovery = try await laptop.sync.setUp(server: server.endpoint, password: server.account.password, deviceName: "laptop")
    let desktop = try TestDevice()
    defer { desktop.removeFolder() }
    try await desktop.sync.join(
        server: server.endpoint, password: server.account.password, deviceName: "desktop", recoveryKey: try RecoveryKey(text: recovery.text))
    try await body(server, laptop, desktop)
}

/// The environment of a `coffer` process whose keychain is in `home` (or behind `socket`), with `password` in
/// PGPASSWORD; nothing else of Coffer's is inherited.
func cofferEnvironment(home: String? = nil, socket: String? = nil, password: String? = nil) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
        !["COFFER_SOCKET", "COFFER_HOME", "COFFER_ACCESS_GROUPS", "PGPASSWORD"].contains($0.key)
    }
    environment["COFFER_HOME"] = home
    environment["COFFER_SOCKET"] = socket
    environment["PGPASSWORD"] = password
    return environment
}

/// The built `coffer` (or another executable of the package).
func builtExecutable(_ name: String = "coffer") -> String { SharedExecutables.buildFolder.appendingPathComponent(name).path }

/// `cluster`'s connection URI for `role`, its socket folder as a percent-encoded host.
func connectionURI(_ cluster: PostgresServer, as role: String) -> String {
    let folder = cluster.socketFolder.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.")))!
    return "postgresql://\(role)@\(folder):\(cluster.port)/\(cluster.database)"
}
