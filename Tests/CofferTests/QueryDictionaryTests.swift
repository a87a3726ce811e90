import Coffer
import Foundation
import KeychainClient
import KeychainModel
import KeychainOperations
import Query
import Synchronization
import Testing

/// A client that records the dictionaries it receives and answers as if nothing matched (an add finds a
/// duplicate).
final class RecordingClient: KeychainClient {
    private let calls = Mutex<[(call: String, query: QueryDictionary, changes: QueryDictionary?)]>([])

    var recorded: [(call: String, query: QueryDictionary, changes: QueryDictionary?)] { calls.withLock { $0 } }

    func send(_ request: Request) async -> Response { sendBlocking(request) }

    func sendBlocking(_ request: Request) -> Response {
        switch request {
        case .add(let query):
            calls.withLock { $0.append(("add", query, nil)) }
            return .status(.duplicateItem)
        case .copyMatching(let query):
            calls.withLock { $0.append(("copyMatching", query, nil)) }
            return .status(.itemNotFound)
        case .update(let query, let changes):
            calls.withLock { $0.append(("update", query, changes)) }
            return .status(.success)
        case .delete(let query):
            calls.withLock { $0.append(("delete", query, nil)) }
            return .status(.itemNotFound)
        case .lock:
            return .status(.success)
        default:
            return .keystoreError(.noPasscodeSet)
        }
    }
}

@Suite("The dictionaries the Swift API builds", .timeLimit(.minutes(10)))
struct QueryDictionaryTests {
    @Test func typedQueryBecomesApplesKeys() async throws {
        let client = RecordingClient()
        var query = InternetPasswordQuery(server: "example.com", account: "alice", protocol: .https)
        query.authenticationType = .httpBasic
        query.port = 443
        query.path = "/"
        query.securityDomain = "realm"
        query.isInvisible = true
        query.creator = 0x6162_6364
        query.accessibility = .afterFirstUnlock
        query.hostOrSubdomainOf = "example.com"
        _ = try await Keychain(client: client).item(matching: query)
        let sent = try #require(client.recorded.first).query
        let expected: QueryDictionary = [
            "class": "inet", "srvr": "example.com", "acct": "alice", "ptcl": "htps", "atyp": "http", "port": 443,
            "path": "/", "sdmn": "realm", "invi": true, "crtr": 0x6162_6364, "pdmn": "ck",
            "m_HostOrSubdomainOfHost": "example.com", "sync": "syna", "m_Limit": "m_LimitOne",
            "r_Attributes": true, "r_Data": true, "r_PersistentRef": true,
        ]
        #expect(sent == expected)
    }

    @Test func setUpdatesByThePrimaryKeyWithStoredDefaults() async throws {  // §1.4 and its NOT NULL defaults
        let client = RecordingClient()
        try await Keychain(client: client).set(InternetPassword(server: "h", account: "a", value: bytes("x"), label: "L"))
        let calls = client.recorded
        #expect(calls.map(\.call) == ["add", "update"])
        let update = try #require(calls.last)
        let expectedQuery: QueryDictionary = [
            "class": "inet", "srvr": "h", "acct": "a", "sdmn": "", "ptcl": 0, "atyp": "", "port": 0, "path": "",
            "sync": false,
        ]
        #expect(update.query == expectedQuery)
        #expect(update.changes == ["labl": "L", "v_Data": .data(bytes("x"))])
    }

    @Test func keychainWorksOverAnyClient() async throws {
        let client = RecordingClient()
        let keychain = Keychain(client: client)
        #expect(try await keychain.items(matching: GenericPasswordQuery(service: "s")).isEmpty)
        let error = await #expect(throws: KeychainError.self) { try await keychain.delete(matching: GenericPasswordQuery()) }
        #expect(error?.status == .itemNotFound)
        #expect(client.recorded.last?.query == ["class": "genp", "sync": "syna"])
    }
}
