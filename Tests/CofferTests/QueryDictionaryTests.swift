import Coffer
import Foundation
import KeychainClient
import KeychainModel
import Keystore
import Query
import Synchronization
import Testing

/// A client that records the dictionaries it receives and answers `errSecItemNotFound`.
final class RecordingClient: KeychainClient {
    private let calls = Mutex<[(call: String, query: QueryDictionary, changes: QueryDictionary?)]>([])

    var recorded: [(call: String, query: QueryDictionary, changes: QueryDictionary?)] { calls.withLock { $0 } }

    func add(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        calls.withLock { $0.append(("add", query, nil)) }
        throw .duplicateItem
    }

    func copyMatching(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        calls.withLock { $0.append(("copyMatching", query, nil)) }
        throw .itemNotFound
    }

    func update(_ query: QueryDictionary, attributesToUpdate: QueryDictionary) throws(KeychainStatus) {
        calls.withLock { $0.append(("update", query, attributesToUpdate)) }
    }

    func delete(_ query: QueryDictionary) throws(KeychainStatus) {
        calls.withLock { $0.append(("delete", query, nil)) }
        throw .itemNotFound
    }

    func lockStatus() throws(KeystoreError) -> KeystoreStatus { throw .noPasscodeSet }
    func unlock(passcode: SecretBytes) throws(KeystoreError) { throw .noPasscodeSet }
    func lock() throws(KeystoreError) {}
    func setPasscode(_ passcode: SecretBytes) throws(KeystoreError) { throw .noPasscodeSet }
    func changePasscode(from old: SecretBytes, to new: SecretBytes) throws(KeystoreError) { throw .noPasscodeSet }
    func removePasscode(current: SecretBytes) throws(KeystoreError) { throw .noPasscodeSet }
    func setEraseAfterFailedAttempts(_ enabled: Bool, passcode: SecretBytes) throws(KeystoreError) { throw .noPasscodeSet }
}

@Suite("The dictionaries the Swift API builds")
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
