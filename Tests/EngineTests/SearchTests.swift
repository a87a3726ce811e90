import CofferTestSupport
import Foundation
import KeychainModel
import Query
import Testing

@Suite("SecItemCopyMatching through the engine", .timeLimit(.minutes(10)))
struct SearchTests {
    @Test(arguments: Transport.allCases) func noMatchIsItemNotFound(transport: Transport) {  // C1
        #expect(TestKeychain(transport: transport).status { _ = try $0.copy(genp()) } == .itemNotFound)
    }

    @Test(arguments: Transport.allCases) func matchingIsExactAndCaseSensitive(transport: Transport) throws {  // §10.1
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("Service", "Me"))
        #expect(keychain.status { _ = try $0.copy(genp("service", "Me")) } == .itemNotFound)
        #expect(keychain.status { _ = try $0.copy(genp("Serv", "Me")) } == .itemNotFound)
        #expect(keychain.status { _ = try $0.copy(genp("Service", "Me")) } == .success)
    }

    @Test(arguments: Transport.allCases) func stringAndDataWithTheSameBytesMatch(transport: Transport) throws {  // §10.1 hashed kinds
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("svc", "me"))
        #expect(keychain.status { _ = try $0.copy(["class": "genp", "svce": .data(Data("svc".utf8))]) } == .success)
    }

    @Test(arguments: Transport.allCases) func numbersMatchByValue(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(["class": "inet", "srvr": "h", "port": 443, "ptcl": "htps"])
        #expect(keychain.status { _ = try $0.copy(["class": "inet", "port": "443"]) } == .success)
        #expect(keychain.status { _ = try $0.copy(["class": "inet", "port": 444]) } == .itemNotFound)
    }

    @Test(arguments: Transport.allCases) func limitsShapeTheResult(transport: Transport) throws {  // §2.3, §2.4
        let keychain = TestKeychain(transport: transport)
        for account in ["a", "b", "c"] { _ = try keychain.add(genp("svc", account, ["v_Data": secretData(account)])) }
        let one = try keychain.copy(["class": "genp", "svce": "svc", "r_Data": true])
        #expect(one?.dataValue != nil)
        let all = try keychain.copy(["class": "genp", "svce": "svc", "r_Data": true, "m_Limit": "m_LimitAll"])
        #expect(all?.arrayValue?.count == 3)
        let two = try keychain.copy(["class": "genp", "svce": "svc", "r_Attributes": true, "m_Limit": 2])
        #expect(two?.arrayValue?.count == 2)
        let bare = try keychain.copy(["class": "genp", "svce": "svc", "m_Limit": "m_LimitAll"])
        #expect(bare == .array([]))
    }

    // Embedded only: it changes the caller's groups on one keychain, which with the daemon means
    // re-registering the same executable (the multi-user daemon tests cover groups end to end).
    @Test func searchCoversOnlyTheCallersGroups() throws {  // §8.5
        let root = TestKeychain(groups: ["A", "B"])
        _ = try root.add(genp("s", "1", ["agrp": "A"]))
        _ = try root.add(genp("s", "2", ["agrp": "B"]))
        let onlyA = root.reopened(groups: ["A"])
        let found = try onlyA.copy(["class": "genp", "svce": "s", "m_Limit": "m_LimitAll", "r_Attributes": true])
        #expect(found?.arrayValue?.count == 1)
        #expect(onlyA.status { _ = try $0.copy(genp("s", "2")) } == .itemNotFound)
        #expect(onlyA.status { try $0.delete(genp("s", "2")) } == .itemNotFound)
        let explicit = try root.copy(["class": "genp", "agrp": "B", "r_Attributes": true])
        #expect(explicit?.dictionary?["acct"] == .string("2"))
    }

    @Test(arguments: Transport.allCases) func synchronizableItemsNeedTheirFilter(transport: Transport) throws {  // §2.5
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("s", "a", ["sync": true]))
        #expect(keychain.status { _ = try $0.copy(genp("s", "a")) } == .itemNotFound)
        #expect(keychain.status { _ = try $0.copy(genp("s", "a", ["sync": true])) } == .success)
        #expect(keychain.status { _ = try $0.copy(genp("s", "a", ["sync": "syna"])) } == .success)
    }

    @Test(arguments: Transport.allCases) func lockedMatchFailsTheWholeCall(transport: Transport) throws {  // C5, G16
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("s", "always", ["pdmn": "dk"]))
        _ = try keychain.add(genp("s", "unlocked", ["pdmn": "ak"]))
        let locked = try keychain.withPasscode()
        #expect(locked.status { _ = try $0.copy(["class": "genp", "svce": "s", "m_Limit": "m_LimitAll", "r_Attributes": true]) } == .interactionNotAllowed)
        #expect(locked.status { _ = try $0.copy(genp("s", "always", ["r_Data": true])) } == .success)
        #expect(locked.status { _ = try $0.copy(genp("s", "unlocked")) } == .interactionNotAllowed)
        try locked.client.blocking.unlock(passcode: .init(copying: Array("1234".utf8)))
        #expect(locked.status { _ = try $0.copy(genp("s", "unlocked", ["r_Data": true])) } == .success)
    }

    @Test(arguments: Transport.allCases) func afterFirstUnlockSurvivesLockButNotRestart(transport: Transport) throws {  // §4.2
        let keychain = try TestKeychain(transport: transport).withPasscode()
        try keychain.client.blocking.unlock(passcode: .init(copying: Array("1234".utf8)))
        _ = try keychain.add(genp("s", "c", ["pdmn": "ck", "v_Data": secretData("c")]))
        _ = try keychain.add(genp("s", "a", ["pdmn": "ak", "v_Data": secretData("a")]))
        try keychain.client.blocking.lock()
        #expect(keychain.status { _ = try $0.copy(genp("s", "c", ["r_Data": true])) } == .success)
        #expect(keychain.status { _ = try $0.copy(genp("s", "a", ["r_Data": true])) } == .interactionNotAllowed)
        #expect(keychain.status { _ = try $0.add(genp("s", "a2", ["pdmn": "ak"])) } == .interactionNotAllowed)
        #expect(keychain.reopened().status { _ = try $0.copy(genp("s", "c")) } == .interactionNotAllowed)
    }

    @Test(arguments: Transport.allCases) func persistentReferenceFindsTheItem(transport: Transport) throws {  // §9
        let keychain = TestKeychain(transport: transport)
        let reference = try #require(try keychain.add(genp("s", "a", ["r_PersistentRef": true, "v_Data": secretData("x")]))?.dataValue)
        _ = try keychain.add(genp("s", "b"))
        let found = try keychain.copy(["v_PersistentRef": .data(reference), "r_Attributes": true])
        #expect(found?.dictionary?["acct"] == .string("a"))
        #expect(keychain.status { _ = try $0.copy(["v_PersistentRef": .data(reference), "acct": "a"]) } == .param)  // C4
    }

    @Test(arguments: Transport.allCases) func hostOrSubdomainMatches(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(["class": "inet", "srvr": "api.example.com", "acct": "1"])
        _ = try keychain.add(["class": "inet", "srvr": "example.com", "acct": "2"])
        _ = try keychain.add(["class": "inet", "srvr": "badexample.com", "acct": "3"])
        let found = try keychain.copy(["class": "inet", "m_HostOrSubdomainOfHost": "example.com", "m_Limit": "m_LimitAll", "r_Attributes": true])
        #expect(found?.arrayValue?.count == 2)
    }
}
