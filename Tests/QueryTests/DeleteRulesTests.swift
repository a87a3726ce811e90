import Foundation
import KeychainModel
import Testing
@testable import Query

/// SecItemDelete rules (D1, D2, D5, D6) and its default limit (§2.3).
@Suite("SecItemDelete", .timeLimit(.minutes(10)))
struct DeleteRulesTests {
    @Test func deleteMatchesEverything() throws {
        let request = try QueryParser.parseDelete(genp())
        #expect(request.search.limit == .all)
        #expect(request.search.returns.isEmpty)
        #expect(request.search.synchronizable == .nonSynchronizable)
        #expect(request.search.filters["svce"] == .string("mail"))
    }

    /// D1: a kSecMatchLimit other than All (`errSecMatchLimitUnsupported`), or any other match key
    /// (`errSecItemMatchUnsupported`); both are -50.
    @Test(arguments: [
        ("m_Limit", KeychainValue.string("m_LimitOne")), ("m_Limit", 3), ("m_Limit", 1),
        ("m_SubjectContains", "x"), ("m_CaseInsensitive", true), ("m_Anything", true),
    ])
    func matchKeysAreParam(key: String, value: KeychainValue) {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseDelete(genp([.string(key): value]))) }
    }

    /// D1: kSecMatchLimitAll is accepted: Apple creates a delete with an unlimited limit, which All sets
    /// again. macOS-flavoured code sends it on every delete.
    @Test func matchLimitAllIsAccepted() throws {
        let request = try QueryParser.parseDelete(genp(["m_Limit": "m_LimitAll"]))
        #expect(request.search.limit == .all)
        #expect(request.search.filters["svce"] == .string("mail"))
        #expect(throws: KeychainStatus.param) {
            try statusOf(QueryParser.parseDelete(genp(["m_Limit": "m_LimitAll", "m_CaseInsensitive": true])))
        }
    }

    /// D2: a legacy rowid reference with attribute filters.
    @Test func legacyReferenceWithFiltersIsParam() throws {
        let legacy = KeychainValue.data(legacyGenpReference.data)
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseDelete(["class": "genp", "svce": "s", "v_PersistentRef": legacy])) }
        #expect(try QueryParser.parseDelete(["v_PersistentRef": legacy]).search.persistentRef == legacyGenpReference)
    }

    /// D5: return keys, kSecValueData and kSecUseItemList are ignored.
    @Test func ignoredKeys() throws {
        let request = try QueryParser.parseDelete(
            genp(["r_Data": true, "r_Attributes": true, "v_Data": .data(secret), "u_ItemList": ["x"]]))
        #expect(request.search.returns.isEmpty)
        #expect(request.search.filters["v_Data"] == nil)
    }

    /// D6: Skip.
    @Test func skipIsParam() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseDelete(genp(["u_AuthUI": "u_AuthUIS"]))) }
    }

    /// §2.5: sync filters on delete, including Any.
    @Test func synchronizableFilters() throws {
        #expect(try QueryParser.parseDelete(genp(["sync": "syna"])).search.synchronizable == .any)
        #expect(try QueryParser.parseDelete(genp(["sync": true])).search.synchronizable == .synchronizable)
    }
}
