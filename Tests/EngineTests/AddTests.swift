import CofferTestSupport
import Foundation
import KeychainModel
import Query
import Testing

@Suite("SecItemAdd through the engine", .timeLimit(.minutes(10)))
struct AddTests {
    @Test(arguments: Transport.allCases) func addThenFindReturnsTheSecret(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("svc", "me", ["v_Data": secretData("hunter2")]))
        let found = try keychain.copy(genp("svc", "me", ["r_Data": true]))
        #expect(found?.dataValue == Data("hunter2".utf8))
    }

    @Test(arguments: Transport.allCases) func duplicatePrimaryKeyIsRefused(transport: Transport) throws {  // A1
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(genp("svc", "me", ["v_Data": secretData("one")]))
        #expect(keychain.status { _ = try $0.add(genp("svc", "me", ["v_Data": secretData("two"), "labl": "other"])) } == .duplicateItem)
        // Attributes outside the key do not make a new item; the key ones do.
        _ = try keychain.add(genp("svc", "you"))
        _ = try keychain.add(genp("svc", "me", ["sync": true]))
    }

    @Test(arguments: Transport.allCases) func itemsWithoutServiceCollideOnAccount(transport: Transport) throws {  // §1.4: absent svce is ""
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(["class": "genp", "acct": "a"])
        #expect(keychain.status { _ = try $0.add(["class": "genp", "acct": "a", "svce": ""]) } == .duplicateItem)
    }

    @Test(arguments: Transport.allCases) func lockedClassFailsBeforeTheDuplicateCheck(transport: Transport) throws {  // A2
        let keychain = try TestKeychain(transport: transport).withPasscode()
        #expect(keychain.status { _ = try $0.add(genp()) } == .interactionNotAllowed)
    }

    @Test(arguments: Transport.allCases) func akpuWithoutPasscodeIsNotAvailable(transport: Transport) {  // A5, G17
        let keychain = TestKeychain(transport: transport)
        #expect(keychain.status { _ = try $0.add(genp("s", "a", ["pdmn": "akpu"])) } == .notAvailable)
    }

    @Test(arguments: Transport.allCases) func alwaysClassCanBeAddedBeforeFirstUnlock(transport: Transport) throws {  // §4.2
        let keychain = try TestKeychain(transport: transport).withPasscode()
        _ = try keychain.add(genp("s", "a", ["pdmn": "dk", "v_Data": secretData("x")]))
        #expect(try keychain.copy(genp("s", "a", ["r_Data": true]))?.dataValue == Data("x".utf8))
    }

    @Test(arguments: Transport.allCases) func callerValuesForDatesAreReplaced(transport: Transport) throws {  // §1.5, §10.2
        let keychain = TestKeychain(transport: transport)
        let old = Date(timeIntervalSince1970: 0)
        let before = Date()
        _ = try keychain.add(genp("s", "a", ["cdat": .date(old), "mdat": .date(old)]))
        let attributes = try #require(try keychain.copy(genp("s", "a", ["r_Attributes": true]))?.dictionary)
        guard case .date(let created)? = attributes["cdat"], case .date(let modified)? = attributes["mdat"] else {
            Issue.record("dates missing"); return
        }
        #expect(created >= before.addingTimeInterval(-1))
        #expect(created == modified)
    }

    @Test(arguments: Transport.allCases) func defaultGroupIsTheFirstOfTheCallersList(transport: Transport) throws {  // §8.3
        let keychain = TestKeychain(transport: transport, groups: ["TEAM.first", "TEAM.second"])
        _ = try keychain.add(genp())
        let attributes = try keychain.copy(genp("svc", "acct", ["r_Attributes": true]))?.dictionary
        #expect(attributes?["agrp"] == .string("TEAM.first"))
    }

    @Test(arguments: Transport.allCases) func explicitGroupOutsideTheListIsMissingEntitlement(transport: Transport) {  // G13
        let keychain = TestKeychain(transport: transport, groups: ["TEAM.first"])
        #expect(keychain.status { _ = try $0.add(genp("s", "a", ["agrp": "TEAM.other"])) } == .missingEntitlement)
        #expect(keychain.status { _ = try $0.copy(genp("s", "a", ["agrp": "TEAM.other"])) } == .missingEntitlement)
        #expect(keychain.status { try $0.delete(genp("s", "a", ["agrp": "TEAM.other"])) } == .missingEntitlement)
    }

    @Test(arguments: Transport.allCases) func callerWithoutGroupsIsRefusedEverything(transport: Transport) {  // G1
        let keychain = TestKeychain(transport: transport, groups: [])
        #expect(keychain.status { _ = try $0.add(genp()) } == .missingEntitlement)
        #expect(keychain.status { _ = try $0.copy(genp()) } == .missingEntitlement)
    }

    @Test(arguments: Transport.allCases) func addReturnsWhatItsFlagsAsk(transport: Transport) throws {  // §2.4 SecItemAdd
        let keychain = TestKeychain(transport: transport)
        let data = try keychain.add(genp("s", "1", ["v_Data": secretData("x"), "r_Data": true]))
        #expect(data?.dataValue == Data("x".utf8))
        let reference = try keychain.add(genp("s", "2", ["r_PersistentRef": true]))
        #expect(reference?.dataValue?.count == 20)
        #expect(reference?.dataValue?.prefix(4) == Data("genp".utf8))
        let none = try keychain.add(genp("s", "3"))
        #expect(none == nil)
    }

    @Test(arguments: Transport.allCases) func oversizedValuesAreParameterErrors(transport: Transport) {  // Coffer's documented limits
        let keychain = TestKeychain(transport: transport)
        let big = KeychainValue.data(Data(count: SizeLimits.valueData + 1))
        #expect(keychain.status { _ = try $0.add(genp("s", "a", ["v_Data": big])) } == .param)
        let longAccount = String(repeating: "a", count: SizeLimits.attributeValue + 1)
        #expect(keychain.status { _ = try $0.add(genp("s", longAccount)) } == .param)
        #expect(keychain.status { _ = try $0.add(genp("s", "a", ["v_Data": .data(Data(count: SizeLimits.valueData))])) } == .success)
    }

    @Test(arguments: Transport.allCases) func wrongValueTypesGetTheReferenceStatus(transport: Transport) {
        let keychain = TestKeychain(transport: transport)
        #expect(keychain.status { _ = try $0.add(genp("s", "a", ["v_Data": "a string"])) } == .param)  // A3
        #expect(keychain.status { _ = try $0.add(genp("s", "a", ["srvr": "host"])) } == .noSuchAttribute)  // G4
        #expect(keychain.status { _ = try $0.add(["class": "nope"]) } == .noSuchClass)  // G3
        #expect(keychain.status { _ = try $0.add(["acct": "a"]) } == .param)  // G2
    }
}
