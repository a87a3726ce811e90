import CofferTestSupport
import Foundation
import KeychainModel
import Query
import Testing

@Suite("SecItemUpdate and SecItemDelete through the engine", .timeLimit(.minutes(10)))
struct UpdateDeleteTests {
    @Test(arguments: Transport.allCases) func updateChangesDataAndAttributes(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("s", "a", ["v_Data": secretData("old")]))
        try keychain.update(genp("s", "a"), ["v_Data": secretData("new"), "labl": "label"])
        let found = try keychain.copy(genp("s", "a", ["r_Data": true, "r_Attributes": true]))?.dictionary
        #expect(found?["v_Data"] == secretData("new"))
        #expect(found?["labl"] == .string("label"))
    }

    @Test(arguments: Transport.allCases) func updateWithNothingMatchingIsItemNotFound(transport: Transport) {  // U9
        #expect(TestKeychain(transport: transport).status { try $0.update(genp(), ["labl": "x"]) } == .itemNotFound)
    }

    @Test(arguments: Transport.allCases) func updateIntoADuplicateRollsEverythingBack(transport: Transport) throws {  // U10
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("s", "a", ["labl": "first"]))
        _ = try keychain.add(genp("s", "b", ["labl": "second"]))
        _ = try keychain.add(genp("t", "a"))
        // Moving every item of service s to account "a" collides for the second one.
        #expect(keychain.status { try $0.update(["class": "genp", "svce": "s"], ["acct": "a", "icmt": "changed"]) } == .duplicateItem)
        let all = try keychain.copy(["class": "genp", "m_Limit": "m_LimitAll", "r_Attributes": true])?.arrayValue ?? []
        #expect(all.count == 3)
        #expect(all.allSatisfy { $0.dictionary?["icmt"] == nil })
    }

    @Test(arguments: Transport.allCases) func updateWhileLockedIsInteractionNotAllowed(transport: Transport) throws {  // U12
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("s", "a"))
        let locked = try keychain.withPasscode()
        #expect(locked.status { try $0.update(genp("s", "a"), ["labl": "x"]) } == .interactionNotAllowed)
    }

    @Test(arguments: Transport.allCases) func updateToAGroupOutsideTheListIsMissingEntitlement(transport: Transport) throws {  // U6
        let keychain = TestKeychain(transport: transport, groups: ["A"])
        _ = try keychain.add(genp())
        #expect(keychain.status { try $0.update(genp(), ["agrp": "B"]) } == .missingEntitlement)
    }

    @Test(arguments: Transport.allCases) func updateKeepsThePersistentReferenceAndCreationDate(transport: Transport) throws {  // §9, §10.2
        let keychain = TestKeychain(transport: transport)
        let reference = try #require(try keychain.add(genp("s", "a", ["r_PersistentRef": true]))?.dataValue)
        let before = try #require(try keychain.copy(genp("s", "a", ["r_Attributes": true]))?.dictionary)
        try keychain.update(genp("s", "a"), ["acct": "renamed", "mdat": .date(Date(timeIntervalSince1970: 5))])
        let after = try #require(try keychain.copy(["v_PersistentRef": .data(reference), "r_Attributes": true, "r_PersistentRef": true])?.dictionary)
        #expect(after["acct"] == .string("renamed"))
        #expect(after["v_PersistentRef"] == .data(reference))
        #expect(after["cdat"] == before["cdat"])
        guard case .date(let oldModified)? = before["mdat"], case .date(let newModified)? = after["mdat"] else {
            Issue.record("mdat missing"); return
        }
        #expect(newModified > oldModified)
        // The reference also updates and deletes.
        try keychain.update(["class": "genp", "v_PersistentRef": .data(reference)], ["labl": "via ref"])
        try keychain.delete(["class": "genp", "v_PersistentRef": .data(reference)])
        #expect(keychain.status { _ = try $0.copy(genp("s", "renamed")) } == .itemNotFound)
    }

    @Test(arguments: Transport.allCases) func callerCreationDateInUpdateIsApplied(transport: Transport) throws {  // §10.2
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp())
        let moment = Date(timeIntervalSinceReferenceDate: 1000)
        try keychain.update(genp(), ["cdat": .date(moment)])
        #expect(try keychain.copy(genp("svc", "acct", ["r_Attributes": true]))?.dictionary?["cdat"] == .date(moment))
    }

    @Test(arguments: Transport.allCases) func changingAccessibilityMovesTheItemToAnotherClass(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("s", "a", ["v_Data": secretData("x")]))
        try keychain.update(genp("s", "a"), ["pdmn": "dk"])
        let locked = try keychain.withPasscode()
        #expect(try locked.copy(genp("s", "a", ["r_Data": true]))?.dataValue == Data("x".utf8))
    }

    @Test(arguments: Transport.allCases) func deleteRemovesEveryMatch(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        for account in ["a", "b"] { _ = try keychain.add(genp("s", account)) }
        _ = try keychain.add(genp("t", "a"))
        try keychain.delete(["class": "genp", "svce": "s"])
        #expect(keychain.status { _ = try $0.copy(["class": "genp", "svce": "s"]) } == .itemNotFound)
        #expect(keychain.status { _ = try $0.copy(["class": "genp", "svce": "t"]) } == .success)
        #expect(keychain.status { try $0.delete(["class": "genp", "svce": "s"]) } == .itemNotFound)  // D3
    }

    @Test(arguments: Transport.allCases) func deleteWorksWhileLocked(transport: Transport) throws {  // §4.2: delete needs no class key
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("s", "a", ["pdmn": "ak"]))
        let locked = try keychain.withPasscode()
        try locked.delete(genp("s", "a"))
        try locked.client.blocking.unlock(passcode: .init(copying: Array("1234".utf8)))
        #expect(locked.status { _ = try $0.copy(genp("s", "a")) } == .itemNotFound)
    }

    /// D1: no match keys and no limit but All; All deletes every match.
    @Test(arguments: Transport.allCases) func deleteRejectsMatchKeysButAcceptsLimitAll(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        #expect(keychain.status { try $0.delete(genp("s", "a", ["m_Limit": "m_LimitOne"])) } == .param)
        #expect(keychain.status { try $0.delete(genp("s", "a", ["m_CaseInsensitive": true])) } == .param)
        _ = try keychain.add(genp("s", "a"))
        _ = try keychain.add(genp("s", "b"))
        try keychain.delete(["class": "genp", "svce": "s", "m_Limit": "m_LimitAll"])
        #expect(keychain.status { _ = try $0.copy(genp("s", "b")) } == .itemNotFound)
        #expect(keychain.status { try $0.delete(["class": "genp", "svce": "s", "m_Limit": "m_LimitAll"]) } == .itemNotFound)
    }

    @Test(arguments: Transport.allCases) func akpuItemsVanishWhenThePasscodeIsRemoved(transport: Transport) throws {  // §4.3
        let keychain = try TestKeychain(transport: transport).withPasscode()
        try keychain.client.blocking.unlock(passcode: .init(copying: Array("1234".utf8)))
        _ = try keychain.add(genp("s", "p", ["pdmn": "akpu"]))
        _ = try keychain.add(genp("s", "k", ["pdmn": "ak"]))
        try keychain.client.blocking.removePasscode(current: .init(copying: Array("1234".utf8)))
        #expect(keychain.status { _ = try $0.copy(genp("s", "p")) } == .itemNotFound)
        #expect(keychain.status { _ = try $0.copy(genp("s", "k")) } == .success)
    }
}
