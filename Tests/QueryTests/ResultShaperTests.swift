import Foundation
import KeychainModel
import Testing
@testable import Query

/// Result shapes of SecItemCopyMatching and SecItemAdd (§2.4).
@Suite("Result shaping (§2.4)", .timeLimit(.minutes(10)))
struct ResultShaperTests {
    private let cdat = Date(timeIntervalSinceReferenceDate: 1000)

    private func item(data: Data? = secret, label: AttributeValue = .data(Data("lbl".utf8))) -> ItemSnapshot {
        let attributes = AttributeSet([
            ("acct", .string("alice")), ("svce", .string("mail")), ("labl", label), ("agrp", .string("TEAM.g")),
            ("pdmn", .string("ak")), ("sync", .number(0)), ("tomb", .number(0)), ("musr", .data(Data())),
            ("cdat", .date(cdat)), ("mdat", .date(cdat)), ("crtr", .number(7)),
            ("persistref", .data(Data(count: 16))), ("UUID", .string("u")),
        ])
        return ItemSnapshot(itemClass: .genericPassword, attributes: attributes, data: data, persistentRef: genpReference)
    }

    private func search(_ extra: [KeychainValue: KeychainValue]) throws -> SearchRequest {
        try QueryParser.parseSearch(genp(extra))
    }

    private func copy(_ extra: [KeychainValue: KeychainValue], items: [ItemSnapshot]? = nil) throws -> KeychainValue? {
        ResultShaper.copyMatchingResult(items: items ?? [item()], request: try search(extra))
    }

    private func dictionary(_ value: KeychainValue?) -> [String: KeychainValue]? {
        if case .dictionary(let entries)? = value { return entries }
        return nil
    }

    @Test func noFlagsWithLimitOneReturnsNothing() throws {
        #expect(try copy([:]) == nil)
    }

    /// Source-derived: no flags with a limit other than one gives an empty array.
    @Test func noFlagsWithLimitAllReturnsEmptyArray() throws {
        #expect(try copy(["m_Limit": "m_LimitAll"]) == .array([]))
    }

    @Test func dataOnly() throws {
        #expect(try copy(["r_Data": true]) == .data(secret))
        #expect(try copy(["r_Data": true], items: [item(data: nil)]) == .data(Data()))  // si-80-empty-data
    }

    @Test func persistentRefOnly() throws {
        #expect(try copy(["r_PersistentRef": true]) == .data(genpReference.data))
    }

    @Test func attributesOnly() throws {
        let attributes = try #require(dictionary(try copy(["r_Attributes": true])))
        #expect(attributes["acct"] == .string("alice"))
        #expect(attributes["labl"] == .data(Data("lbl".utf8)))  // blob keeps its type
        #expect(attributes["crtr"] == .number(7))
        #expect(attributes["cdat"] == .date(cdat))
        #expect(attributes["tomb"] == .number(0))
        #expect(attributes["musr"] == .data(Data()))
        #expect(attributes["accc"] == .accessControl(AccessControl(protection: .whenUnlocked)))
        #expect(attributes["UUID"] == nil)
        #expect(attributes["persistref"] == nil)
        #expect(attributes["class"] == nil)
        #expect(attributes["v_Data"] == nil)
    }

    @Test func dataAndAttributes() throws {
        let result = try #require(dictionary(try copy(["r_Attributes": true, "r_Data": true])))
        #expect(result["v_Data"] == .data(secret))
        #expect(result["acct"] == .string("alice"))
        let empty = try #require(dictionary(try copy(["r_Attributes": true, "r_Data": true], items: [item(data: nil)])))
        #expect(empty["v_Data"] == nil)
    }

    @Test func attributesAndPersistentRef() throws {
        let result = try #require(dictionary(try copy(["r_Attributes": true, "r_PersistentRef": true])))
        #expect(result["v_PersistentRef"] == .data(genpReference.data))
        #expect(result["v_Data"] == nil)
    }

    /// Decided: Data + PersistentRef gives a dictionary with both values and the attributes.
    @Test func dataAndPersistentRef() throws {
        let result = try #require(dictionary(try copy(["r_Data": true, "r_PersistentRef": true])))
        #expect(result["v_Data"] == .data(secret))
        #expect(result["v_PersistentRef"] == .data(genpReference.data))
        #expect(result["acct"] == .string("alice"))
    }

    /// KeychainAPITests testGenpReturnRef: Ref alone yields nothing for passwords.
    @Test func refAloneYieldsNothingForPasswords() throws {
        #expect(try copy(["r_Ref": true]) == nil)
        #expect(try copy(["r_Ref": true, "m_Limit": "m_LimitAll"], items: [item(), item()]) == .array([]))
    }

    /// Ref with other flags: the attributes plus `class`, and the requested values.
    @Test func refWithOtherFlags() throws {
        let result = try #require(dictionary(try copy(["r_Ref": true, "r_Data": true])))
        #expect(result["class"] == .string("genp"))
        #expect(result["v_Data"] == .data(secret))
        #expect(result["acct"] == .string("alice"))
        #expect(result["v_Ref"] == nil)
    }

    @Test func limitOtherThanOneGivesArray() throws {
        let items = [item(), item(data: Data("two".utf8)), item(data: Data("three".utf8))]
        #expect(
            try copy(["r_Data": true, "m_Limit": "m_LimitAll"], items: items)
                == .array([.data(secret), .data(Data("two".utf8)), .data(Data("three".utf8))]))
        #expect(try copy(["r_Data": true, "m_Limit": 2], items: items) == .array([.data(secret), .data(Data("two".utf8))]))
        #expect(try copy(["r_Data": true, "m_Limit": 1], items: items) == .data(secret))
    }

    @Test func noItemsGiveNoResult() throws {
        #expect(try copy(["r_Data": true], items: []) == nil)
        #expect(try copy(["r_Data": true, "m_Limit": "m_LimitAll"], items: []) == nil)
    }

    @Test func storedAccessControlIsReturned() throws {
        var stored = item()
        stored.attributes["accc"] = .accessControl(biometricControl)
        let result = ResultShaper.copyMatchingResult(items: [stored], request: try search(["r_Attributes": true]))
        #expect(dictionary(result)?["accc"] == .accessControl(biometricControl))
    }

    @Test func addResultShapes() {
        let added = item()
        #expect(ResultShaper.addResult(item: added, returns: []) == nil)
        #expect(ResultShaper.addResult(item: added, returns: .ref) == nil)  // testGenpReturnRef
        #expect(ResultShaper.addResult(item: added, returns: .data) == .data(secret))
        #expect(ResultShaper.addResult(item: item(data: nil), returns: .data) == .data(Data()))
        #expect(ResultShaper.addResult(item: added, returns: .persistentRef) == .data(genpReference.data))
        #expect(
            ResultShaper.addResult(item: added, returns: [.data, .persistentRef])
                == .dictionary(["v_Data": .data(secret), "v_PersistentRef": .data(genpReference.data)]))
    }

    /// SecItemAdd attributes: only A-flag attributes (no tomb/musr), accc only when the caller passed one.
    @Test func addResultAttributes() throws {
        let result = try #require(dictionary(ResultShaper.addResult(item: item(), returns: [.attributes, .data])))
        #expect(result["acct"] == .string("alice"))
        #expect(result["sync"] == .number(0))
        #expect(result["v_Data"] == .data(secret))
        #expect(result["tomb"] == nil)
        #expect(result["musr"] == nil)
        #expect(result["accc"] == nil)
        #expect(result["persistref"] == nil)
        #expect(result["v_PersistentRef"] == nil)
    }

    /// End to end: the parsed add's attributes shape into an add result.
    @Test func parsedAddShapesIntoResult() throws {
        let request = try QueryParser.parseAdd(genp(["r_Attributes": true, "labl": "L", "v_Data": .data(secret)]))
        let snapshot = ItemSnapshot(
            itemClass: request.itemClass, attributes: request.attributes(withAccessGroup: "TEAM.g"),
            data: request.valueData, persistentRef: genpReference)
        let result = try #require(dictionary(ResultShaper.addResult(item: snapshot, returns: request.returns)))
        #expect(result["labl"] == .string("L"))
        #expect(result["agrp"] == .string("TEAM.g"))
        #expect(result["pdmn"] == .string("ak"))
        #expect(result["v_Data"] == nil)
    }
}
