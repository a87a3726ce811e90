import Foundation
import KeychainModel
import Testing
@testable import Query

/// §2.1 key classification and rules G2–G8, G15, which every call shares.
@Suite("Key classification (§2.1)", .timeLimit(.minutes(10)))
struct KeyClassificationTests {
    /// The four query parsers, so shared rules are checked for each call.
    enum Call: String, CaseIterable {
        case add, search, updateQuery, delete

        /// Parses `query` with this call, throwing Apple's status of a rejection.
        func parse(_ query: QueryDictionary) throws(KeychainStatus) {
            try statusOf(rejecting(query))
        }

        /// Parses `query` with this call.
        func rejecting(_ query: QueryDictionary) throws(QueryRejection) {
            switch self {
            case .add: _ = try QueryParser.parseAdd(query)
            case .search: _ = try QueryParser.parseSearch(query)
            case .updateQuery: _ = try QueryParser.parseUpdate(query: query, attributesToUpdate: ["labl": "x"])
            case .delete: _ = try QueryParser.parseDelete(query)
            }
        }
    }

    @Test(arguments: Call.allCases)
    func plainQueryIsAccepted(call: Call) throws {
        try call.parse(genp())
        try call.parse(inet())
    }

    /// G2: no class and no persistent reference.
    @Test(arguments: Call.allCases)
    func missingClassIsParam(call: Call) {
        #expect(throws: KeychainStatus.param) { try call.parse(["acct": "a"]) }
    }

    /// G2: a class that is not a string, with nothing to fall back on.
    @Test func nonStringClassIsParam() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(["class": 5])) }
    }

    /// G3: unknown class strings, including `apls`.
    @Test(arguments: ["apls", "GENP", "password", ""])
    func unknownClassIsNoSuchClass(name: String) {
        #expect(throws: KeychainStatus.noSuchClass) { try statusOf(QueryParser.parseSearch(["class": .string(name)])) }
    }

    /// G4: a four-character key that is not an attribute of the class.
    @Test(arguments: [
        (["class": "genp", "srvr": "example.com"] as QueryDictionary, Call.add),
        (["class": "genp", "atag": "tag"] as QueryDictionary, .search),
        (["class": "inet", "svce": "mail"] as QueryDictionary, .delete),
        (["class": "genp", "zzzz": 1] as QueryDictionary, .updateQuery),
    ])
    func foreignAttributeIsNoSuchAttribute(query: QueryDictionary, call: Call) {
        #expect(throws: KeychainStatus.noSuchAttribute) { try call.parse(query) }
    }

    /// §2.1: `nleg` (kSecUseDataProtectionKeychain) is a four-character key the daemon ignores.
    @Test(arguments: Call.allCases)
    func dataProtectionKeychainKeyIsIgnored(call: Call) throws {
        try call.parse(genp(["nleg": true]))
    }

    /// G6: unknown keys of the `c`, `r`, `u`, `v` shapes, too-short keys and keys of other shapes.
    @Test(arguments: ["classy", "r_Whatever", "u_Nothing", "v_Other", "x", "", "xyz", "accessGroup", "kSecAttrAccount"])
    func unknownKeyShapesAreParam(key: String) {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp([.string(key): true]))) }
    }

    /// §2.1: unknown `m…` keys are accepted and ignored by CopyMatching; `f…` keys always.
    @Test func unknownMatchAndCallbackKeysAreIgnored() throws {
        let request = try QueryParser.parseSearch(genp(["m_Unknown": 1, "m_CaseInsensitive": true, "f_Callback": 1]))
        #expect(request.limit == .one)
    }

    /// §2.1: a number key is looked up as an attribute (-25303); other non-string keys are -50.
    @Test func nonStringKeys() {
        #expect(throws: KeychainStatus.noSuchAttribute) { try statusOf(QueryParser.parseSearch(genp([.number(4): "x"]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp([.bool(true): "x"]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp([.data(Data("acct".utf8)): "x"]))) }
    }

    /// G7: return values must be CFBooleans; an integer NSNumber is -50.
    @Test(arguments: ["r_Data", "r_Attributes", "r_Ref", "r_PersistentRef"])
    func returnValueMustBeBoolean(key: String) {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp([.string(key): 1]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp([.string(key): "true"]))) }
        let bridged = QueryDictionary(bridging: ["class": "genp", key: NSNumber(value: 1)] as [AnyHashable: Any])
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(bridged)) }
    }

    /// G7: a boolean NSNumber is a CFBoolean and accepted.
    @Test func booleanNSNumberReturnValueIsAccepted() throws {
        let bridged = QueryDictionary(bridging: ["class": "genp", "r_Data": NSNumber(value: true)] as [AnyHashable: Any])
        #expect(try QueryParser.parseSearch(bridged).returns == .data)
    }

    /// G8: match limit values.
    @Test(arguments: [KeychainValue.string("m_LimitSome"), true, .data(Data()), .null])
    func invalidMatchLimitIsParam(value: KeychainValue) {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["m_Limit": value]))) }
    }

    /// G15: the class's schema entries plus the other dictionary entries may not exceed 128.
    @Test func queryKeyCap() throws {
        let schema = AttributeCatalogue.schemaEntryCount(for: .genericPassword)
        var query: QueryDictionary = ["class": "genp"]
        for index in 0..<(128 - schema - 1) { query[String(format: "m_Extra%03d", index)] = true }
        _ = try QueryParser.parseSearch(query)
        query["m_OneTooMany"] = true
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(query)) }
    }

    /// G15: attribute keys of the class are part of the schema and do not add to the count.
    @Test func attributesDoNotCountTowardTheCap() throws {
        let schema = AttributeCatalogue.schemaEntryCount(for: .internetPassword)
        var query: QueryDictionary = ["class": "inet"]
        for code in ["acct", "srvr", "sdmn", "path", "labl", "desc", "icmt", "atyp"] { query[code] = "x" }
        for index in 0..<(128 - schema - 1) { query[String(format: "m_Extra%03d", index)] = true }
        _ = try QueryParser.parseSearch(query)
    }
}
