import CofferTestSupport
import Foundation
import ItemStore
import KeychainModel
import Query
import Testing

/// A key query: `class` = `keys`, plus `extra`.
private func key(_ extra: QueryDictionary = [:]) -> QueryDictionary {
    var query: QueryDictionary = ["class": "keys"]
    for (name, value) in extra.entries { query.entries[name] = value }
    return query
}

/// An EC private key as client code adds it: Apple's string constants for class and type.
private func privateKey(tag: String, _ extra: QueryDictionary = [:]) -> QueryDictionary {
    var query = key(["kcls": "1", "type": "73", "bsiz": 256, "atag": .data(Data(tag.utf8)), "v_Data": .data(keyBytes)])
    for (name, value) in extra.entries { query.entries[name] = value }
    return query
}

private let keyBytes = Data([0x04] + Array(repeating: 0xA5, count: 96))

/// Key items (`kSecClassKey`) through the keychain service, in process and through the daemon.
@Suite("Key items through the engine", .timeLimit(.minutes(10)))
struct KeyItemEngineTests {
    /// §1.3.4 defaults, §7.1 value forms: what a key added with only a tag and its data reads back as.
    @Test(arguments: Transport.allCases) func defaultsAreStoredAndReturned(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(key(["atag": "tag", "v_Data": .data(keyBytes)]))
        let attributes = try #require(try keychain.copy(key(["atag": "tag", "r_Attributes": true]))?.dictionary)
        #expect(attributes["kcls"] == .number(0))
        #expect(attributes["klbl"] == .data(Data()))
        #expect(attributes["atag"] == .string("tag"))
        for code in ["crtr", "type", "bsiz", "esiz", "sync", "tomb"] { #expect(attributes[code] == .number(0), "\(code)") }
        #expect(attributes["sdat"] == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(attributes["edat"] == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(attributes["pdmn"] == .string("ak"))
        #expect(attributes["musr"] == .data(Data()))
        #expect(attributes["sha1"]?.dataValue?.count == 20)
        #expect(attributes["agrp"] != nil)
        #expect(attributes["class"] == nil)
        #expect(attributes["v_Data"] == nil)
        #expect(try keychain.copy(key(["atag": "tag", "r_Data": true]))?.dataValue == keyBytes)
    }

    @Test(arguments: Transport.allCases) func keysAreFoundByTheirAttributesInEitherForm(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(privateKey(tag: "signing", ["labl": "My key", "klbl": .data(Data([1, 2]))]))
        _ = try keychain.add(key(["kcls": "0", "type": "73", "bsiz": 256, "atag": "signing", "v_Data": .data(Data([4]))]))
        let finds: [QueryDictionary] = [
            key(["atag": "signing", "kcls": "1"]), key(["atag": .data(Data("signing".utf8)), "kcls": 1]),
            key(["type": "73", "kcls": "1"]), key(["type": 73, "bsiz": "256", "kcls": true]), key(["labl": "My key"]),
            key(["klbl": .data(Data([1, 2]))]), key(["klbl": .data(Data([1, 2])), "esiz": 0, "crtr": "0"]),
        ]
        for query in finds {
            var asked = query
            asked.entries["r_Data"] = true
            #expect(try keychain.copy(asked)?.dataValue == keyBytes, "\(query)")
        }
        let misses: [QueryDictionary] = [
            key(["atag": "Signing"]), key(["type": "42"]), key(["kcls": "2"]), key(["bsiz": 384]), key(["labl": "my key"]),
        ]
        for query in misses { #expect(keychain.status { _ = try $0.copy(query) } == .itemNotFound, "\(query)") }
        let both = try keychain.copy(key(["atag": "signing", "r_Attributes": true, "m_Limit": "m_LimitAll"]))?.arrayValue
        #expect(both?.compactMap { $0.dictionary?["kcls"] }.sorted { "\($0)" < "\($1)" } == [.number(0), .number(1)])
    }

    /// §1.4 (A1): the uniqueness constraint of keys.
    @Test(arguments: Transport.allCases) func duplicatesFollowTheKeyConstraint(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(privateKey(tag: "t"))
        // Differing only in attributes outside the constraint: a duplicate; numbers for the string constants too.
        for extra: QueryDictionary in [
            ["labl": "other"], ["pdmn": "dk"], ["perm": true, "sign": 1, "alis": "alias"], ["v_Data": .data(Data([9]))],
            ["kcls": 1, "type": 73, "atag": "t"],
        ] {
            #expect(keychain.status { _ = try $0.add(privateKey(tag: "t", extra)) } == .duplicateItem, "\(extra)")
        }
        // Differing in any attribute of it: a new item.
        for extra: QueryDictionary in [
            ["kcls": "0"], ["klbl": .data(Data([1]))], ["atag": "u"], ["crtr": 1], ["type": "42"], ["bsiz": 384],
            ["esiz": 128], ["sdat": .date(Date(timeIntervalSinceReferenceDate: 60))],
            ["edat": .date(Date(timeIntervalSinceReferenceDate: 60))], ["sync": true], ["vwht": "view"], ["tkid": "token"],
        ] {
            #expect(keychain.status { _ = try $0.add(privateKey(tag: "t", extra)) } == .success, "\(extra)")
        }
        let all = try keychain.copy(key(["m_Limit": "m_LimitAll", "sync": "syna", "r_PersistentRef": true]))?.arrayValue
        #expect(all?.count == 13)
    }

    @Test(arguments: Transport.allCases) func accessGroupIsPartOfTheConstraint(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport, groups: ["TEAM.one", "TEAM.two"])
        _ = try keychain.add(privateKey(tag: "t"))
        #expect(keychain.status { _ = try $0.add(privateKey(tag: "t", ["agrp": "TEAM.one"])) } == .duplicateItem)
        _ = try keychain.add(privateKey(tag: "t", ["agrp": "TEAM.two"]))
        #expect(try keychain.copy(key(["atag": "t", "m_Limit": "m_LimitAll"]))?.arrayValue?.count == 0)  // no flags
    }

    @Test(arguments: Transport.allCases) func updateAndDelete(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        _ = try keychain.add(privateKey(tag: "a"))
        _ = try keychain.add(privateKey(tag: "b"))
        try keychain.update(key(["atag": "a"]), ["labl": "renamed", "v_Data": .data(Data([4, 2]))])
        let found = try #require(try keychain.copy(key(["labl": "renamed", "r_Attributes": true, "r_Data": true]))?.dictionary)
        #expect(found["atag"] == .data(Data("a".utf8)))
        #expect(found["v_Data"] == .data(Data([4, 2])))
        #expect(found["kcls"] == .number(1))
        // U10: a new tag that collides with the other key.
        #expect(keychain.status { try $0.update(key(["atag": "a"]), ["atag": "b"]) } == .duplicateItem)
        // Changing a part of the constraint to a free value is fine; the class as Apple's constant is a number.
        try keychain.update(key(["atag": "a"]), ["kcls": "0"])
        #expect(try keychain.copy(key(["atag": "a", "r_Attributes": true]))?.dictionary?["kcls"] == .number(0))
        #expect(keychain.status { try $0.update(key(["atag": "a"]), ["acct": "x"]) } == .noSuchAttribute)  // G4
        try keychain.delete(key(["atag": "a", "m_Limit": "m_LimitAll"]))
        #expect(keychain.status { _ = try $0.copy(key(["atag": "a"])) } == .itemNotFound)
        #expect(keychain.status { try $0.delete(key(["atag": "a"])) } == .itemNotFound)  // D3
        #expect(try keychain.copy(key(["atag": "b", "r_Data": true]))?.dataValue == keyBytes)
        try keychain.delete(key())
        #expect(keychain.status { _ = try $0.copy(key()) } == .itemNotFound)
    }

    /// §2.4: Ref on a key is its reference (attributes, class, data), alone or under `v_Ref`; the daemon
    /// carries it as the embedded keychain returns it.
    @Test(arguments: Transport.allCases) func referencesToKeys(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        let added = try keychain.add(privateKey(tag: "r", ["r_Ref": true]))
        guard case .itemReference(let fromAdd)? = added else { Issue.record("add: \(String(describing: added))"); return }
        #expect(fromAdd.itemClass == .key)
        #expect(fromAdd.data == keyBytes)
        #expect(fromAdd.attributes["class"] == .string("keys"))
        #expect(fromAdd.attributes["kcls"] == .number(1))
        #expect(fromAdd.attributes["tomb"] == nil)  // SecItemAdd's attributes

        let found = try keychain.copy(key(["atag": "r", "r_Ref": true]))
        guard case .itemReference(let reference)? = found else { Issue.record("copy: \(String(describing: found))"); return }
        #expect(reference.data == keyBytes)
        #expect(reference.attributes["class"] == .string("keys"))
        #expect(reference.attributes["type"] == .number(73))
        #expect(reference.attributes["bsiz"] == .number(256))
        #expect(reference.attributes["atag"] == .data(Data("r".utf8)))
        #expect(reference.attributes["tomb"] == .number(0))  // CopyMatching's attributes

        let withAttributes = try #require(try keychain.copy(key(["atag": "r", "r_Ref": true, "r_Attributes": true]))?.dictionary)
        #expect(withAttributes["v_Ref"] == .itemReference(reference))
        #expect(withAttributes["class"] == .string("keys"))
        #expect(withAttributes["v_Data"] == nil)
        let withData = try #require(try keychain.copy(key(["atag": "r", "r_Ref": true, "r_Data": true]))?.dictionary)
        #expect(withData["v_Data"] == .data(keyBytes))

        _ = try keychain.add(privateKey(tag: "r", ["kcls": "0"]))
        let all = try keychain.copy(key(["atag": "r", "r_Ref": true, "m_Limit": "m_LimitAll"]))?.arrayValue
        #expect(all?.count == 2)
        #expect(all?.allSatisfy { if case .itemReference = $0 { true } else { false } } == true)
    }

    @Test(arguments: Transport.allCases) func persistentReferencesNameKeys(transport: Transport) throws {
        let keychain = TestKeychain(transport: transport)
        let reference = try #require(try keychain.add(privateKey(tag: "p", ["r_PersistentRef": true]))?.dataValue)
        #expect(reference.prefix(4) == Data("keys".utf8))
        #expect(try keychain.copy(["v_PersistentRef": .data(reference), "r_Data": true])?.dataValue == keyBytes)
    }

    /// A Ref reads the key's data, so it needs the key's class key as the data does (C5, §4.2).
    @Test(arguments: Transport.allCases) func referencesNeedTheClassKey(transport: Transport) throws {
        let keychain = try TestKeychain(transport: transport).withPasscode()
        try keychain.client.blocking.unlock(passcode: .init(copying: Array("1234".utf8)))
        _ = try keychain.add(privateKey(tag: "ak"))
        _ = try keychain.add(privateKey(tag: "dku", ["pdmn": "dku"]))
        try keychain.client.blocking.lock()
        #expect(keychain.status { _ = try $0.copy(key(["atag": "ak", "r_Ref": true])) } == .interactionNotAllowed)
        guard case .itemReference(let reference)? = try keychain.copy(key(["atag": "dku", "r_Ref": true])) else {
            Issue.record("no reference"); return
        }
        #expect(reference.data == keyBytes)
    }

    /// The store has a column for every key attribute a search can filter on, as for passwords: Query's
    /// attributes of the class but the unsearchable bookkeeping, the access control and the secret fields.
    @Test(arguments: [ItemClass.genericPassword, .internetPassword, .key])
    func theStoreIndexesEveryFilterableAttribute(itemClass: ItemClass) {
        let unindexed: Set<String> = ["tomb", "accc", "UUID", "persistref", "sysb", "pcss", "pcsk", "pcsi", "clip"]
        let filterable = AttributeCatalogue.descriptors(for: itemClass)
            .filter { !$0.flags.contains(.secret) && !unindexed.contains($0.code) }.map(\.code)
        #expect(ItemStore.indexedAttributes(for: itemClass) == Set(filterable))
    }
}
