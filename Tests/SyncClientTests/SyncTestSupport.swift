import CofferTestSupport
import EmbeddedClient
import Engine
import Foundation
import KeychainModel
import Logging
import PostgresFixture
import Query
import SyncClient
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

    static func start() async throws -> TestSyncServer {
        let cluster = try PostgresServer()
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
