import Foundation
import KeychainModel
import Testing
@testable import Query

/// Result shapes of key items (§2.4): `kSecReturnRef` yields an ``ItemReference``, alone or under `v_Ref`.
@Suite("Result shaping of keys (§2.4)", .timeLimit(.minutes(10)))
struct KeyResultShapeTests {
    private let keyBytes = Data([0x04, 0x01, 0x02, 0x03])
    private let reference = PersistentReference(
        itemClass: .key, uuid: UUID(uuidString: "00000000-0000-0000-0000-0000000000AB")!)

    private func item(data: Data?? = nil) -> ItemSnapshot {
        let attributes = AttributeSet([
            ("kcls", .number(1)), ("type", .number(73)), ("bsiz", .number(256)), ("atag", .string("tag")),
            ("klbl", .data(Data())), ("agrp", .string("TEAM.g")), ("pdmn", .string("ak")), ("sync", .number(0)),
            ("tomb", .number(0)), ("musr", .data(Data())), ("sdat", .date(Date(timeIntervalSinceReferenceDate: 0))),
        ])
        return ItemSnapshot(itemClass: .key, attributes: attributes, data: data ?? keyBytes, persistentRef: reference)
    }

    private func copy(_ extra: [KeychainValue: KeychainValue], items: [ItemSnapshot]? = nil) throws -> KeychainValue? {
        ResultShaper.copyMatchingResult(items: items ?? [item()], request: try QueryParser.parseSearch(keys(extra)))
    }

    private func itemReference(_ value: KeychainValue?) -> ItemReference? {
        if case .itemReference(let reference)? = value { return reference }
        return nil
    }

    private func dictionary(_ value: KeychainValue?) -> [String: KeychainValue]? {
        if case .dictionary(let entries)? = value { return entries }
        return nil
    }

    /// Ref alone: the reference, with the CopyMatching attributes, `class` and the key's data.
    @Test func refAloneIsTheReference() throws {
        let found = try #require(itemReference(try copy(["r_Ref": true])))
        #expect(found.itemClass == .key)
        #expect(found.data == keyBytes)
        #expect(found.attributes["class"] == .string("keys"))
        #expect(found.attributes["kcls"] == .number(1))
        #expect(found.attributes["type"] == .number(73))
        #expect(found.attributes["atag"] == .string("tag"))
        #expect(found.attributes["tomb"] == .number(0))
        #expect(found.attributes["accc"] == .accessControl(AccessControl(protection: .whenUnlocked)))
        #expect(found.attributes["v_Data"] == nil)
        #expect(KeychainValue.itemReference(found).typeName == "SecKey")
    }

    /// Ref with other flags: attributes, `class`, `v_Ref`, and `v_Data` only when Data was asked for.
    @Test func refWithOtherFlagsIsADictionary() throws {
        let withAttributes = try #require(dictionary(try copy(["r_Ref": true, "r_Attributes": true])))
        #expect(withAttributes["class"] == .string("keys"))
        #expect(withAttributes["kcls"] == .number(1))
        #expect(withAttributes["v_Data"] == nil)
        #expect(withAttributes["v_PersistentRef"] == nil)
        #expect(itemReference(withAttributes["v_Ref"])?.data == keyBytes)

        let withData = try #require(dictionary(try copy(["r_Ref": true, "r_Data": true])))
        #expect(withData["v_Data"] == .data(keyBytes))
        #expect(withData["kcls"] == .number(1))  // the attributes come with a Ref
        #expect(withData["v_Ref"] != nil)

        let withPersistentRef = try #require(dictionary(try copy(["r_Ref": true, "r_PersistentRef": true])))
        #expect(withPersistentRef["v_PersistentRef"] == .data(reference.data))
        #expect(withPersistentRef["v_Data"] == nil)
        #expect(withPersistentRef["atag"] == .string("tag"))
    }

    /// Data alone on a key is its external representation; Attributes alone carry no `class`.
    @Test func dataAndAttributesAreAsForPasswords() throws {
        #expect(try copy(["r_Data": true]) == .data(keyBytes))
        let attributes = try #require(dictionary(try copy(["r_Attributes": true])))
        #expect(attributes["class"] == nil)
        #expect(attributes["v_Ref"] == nil)
        #expect(attributes["kcls"] == .number(1))
    }

    /// kSecMatchLimitAll: an array of references, one per key.
    @Test func limitAllGivesAnArrayOfReferences() throws {
        let other = ItemSnapshot(
            itemClass: .key, attributes: AttributeSet([("kcls", .number(0)), ("atag", .string("tag"))]), data: Data([9]),
            persistentRef: reference)
        guard case .array(let elements)? = try copy(["r_Ref": true, "m_Limit": "m_LimitAll"], items: [item(), other]) else {
            Issue.record("no array"); return
        }
        #expect(elements.compactMap { itemReference($0)?.data } == [keyBytes, Data([9])])
    }

    /// A key stored without data still has a reference; the front end decides whether it can build one.
    @Test func aKeyWithoutDataHasAReferenceWithoutData() throws {
        let found = try #require(itemReference(try copy(["r_Ref": true], items: [item(data: .some(nil))])))
        #expect(found.data == nil)
    }

    /// SecItemAdd with Ref: as CopyMatching, with the attributes SecItemAdd returns (no `tomb`/`musr`).
    @Test func addResultsWithRef() throws {
        let alone = try #require(itemReference(ResultShaper.addResult(item: item(), returns: .ref)))
        #expect(alone.attributes["class"] == .string("keys"))
        #expect(alone.attributes["tomb"] == nil)
        #expect(alone.attributes["musr"] == nil)
        #expect(alone.attributes["kcls"] == .number(1))
        #expect(alone.data == keyBytes)

        let withAttributes = try #require(dictionary(ResultShaper.addResult(item: item(), returns: [.ref, .attributes])))
        #expect(withAttributes["class"] == .string("keys"))
        #expect(withAttributes["v_Ref"] == .itemReference(alone))
        #expect(withAttributes["v_Data"] == nil)

        let all = try #require(dictionary(ResultShaper.addResult(item: item(), returns: [.ref, .data, .persistentRef])))
        #expect(all["v_Data"] == .data(keyBytes))
        #expect(all["v_PersistentRef"] == .data(reference.data))
        #expect(all["atag"] == .string("tag"))
        #expect(all["v_Ref"] != nil)
    }

    /// Passwords keep dropping Ref, whatever else is asked for.
    @Test func passwordsStillHaveNoReference() throws {
        let password = ItemSnapshot(
            itemClass: .genericPassword, attributes: AttributeSet([("acct", .string("a"))]), data: secret,
            persistentRef: genpReference)
        #expect(ResultShaper.addResult(item: password, returns: .ref) == nil)
        let result = try #require(dictionary(ResultShaper.addResult(item: password, returns: [.ref, .attributes])))
        #expect(result["v_Ref"] == nil)
    }

    /// The key's bytes are a secret: diagnostics show their length only.
    @Test func renderingRedactsTheKeyBytes() throws {
        let rendered = RedactedRendering.render(result: try #require(try copy(["r_Ref": true])))
        #expect(rendered.hasPrefix("<SecKey {"))
        #expect(rendered.contains("v_Data: <redacted 4 bytes>"))
        #expect(rendered.contains("class: \"keys\""))
        #expect(!rendered.contains("04010203"))
        let inDictionary = RedactedRendering.render(result: try #require(try copy(["r_Ref": true, "r_Attributes": true])))
        #expect(inDictionary.contains("v_Ref: <SecKey {"))
        #expect(!inDictionary.contains("04010203"))
    }
}
