import Foundation
import KeychainModel
import Testing
@testable import Query

/// SecItemCopyMatching rules (C2–C4, C8), default limits (§2.3) and sync handling (§2.5).
@Suite("SecItemCopyMatching", .timeLimit(.minutes(10)))
struct SearchRulesTests {
    @Test func filtersAreCoercedAndSeparated() throws {
        let request = try QueryParser.parseSearch(
            inet(["port": "443", "agrp": "TEAM.g", "sync": true, "accc": .accessControl(biometricControl)]))
        #expect(request.filters["acct"] == .string("alice"))
        #expect(request.filters["port"] == .number(443))
        #expect(!request.filters.contains("agrp"))
        #expect(!request.filters.contains("sync"))
        #expect(!request.filters.contains("accc"))  // §6.3: not a filter
        #expect(request.accessGroup == "TEAM.g")
        #expect(request.synchronizable == .synchronizable)
    }

    /// A4 is an add rule: a search with a constrained access control and sync = true is valid.
    @Test func constrainedAccessControlWithSyncIsAcceptedInSearch() throws {
        let request = try QueryParser.parseSearch(genp(["accc": .accessControl(biometricControl), "sync": true]))
        #expect(request.synchronizable == .synchronizable)
    }

    @Test func explicitProtectionIsAFilterAndMultiUserIsNot() throws {
        let request = try QueryParser.parseSearch(genp(["pdmn": "ck", "musr": .data(Data())]))
        #expect(request.filters["pdmn"] == .string("ck"))
        #expect(!request.filters.contains("musr"))
    }

    /// §2.3: CopyMatching returns one item unless told otherwise.
    @Test func defaultLimitIsOne() throws {
        #expect(try QueryParser.parseSearch(genp()).limit == .one)
    }

    /// §2.2: kSecMatchLimit values; the number 1 behaves exactly like One.
    @Test(arguments: [
        (KeychainValue.string("m_LimitOne"), MatchLimit.one), ("m_LimitAll", .all), (1, .one), (5, .count(5)),
        (-1, .all), (0, .count(0)), (.double(3.7), .count(3)),
    ])
    func matchLimitValues(value: KeychainValue, limit: MatchLimit) throws {
        #expect(try QueryParser.parseSearch(genp(["m_Limit": value])).limit == limit)
    }

    /// §2.5: the synchronizable filter.
    @Test(arguments: [
        (KeychainValue?.none, SynchronizableFilter.nonSynchronizable), (true, .synchronizable), (1, .synchronizable),
        ("1", .synchronizable), (false, .nonSynchronizable), (0, .nonSynchronizable), ("0", .nonSynchronizable),
        ("syna", .any),
    ])
    func synchronizableFilter(value: KeychainValue?, filter: SynchronizableFilter) throws {
        var query = genp()
        query["sync"] = value
        #expect(try QueryParser.parseSearch(query).synchronizable == filter)
    }

    /// §2.5 exception: a query by persistent reference gets no implicit `sync = 0`.
    @Test func persistentReferenceSearchesEverySyncState() throws {
        let request = try QueryParser.parseSearch(["class": "genp", "v_PersistentRef": .data(genpReference.data)])
        #expect(request.synchronizable == .any)
        let any = try QueryParser.parseSearch(
            ["class": "genp", "v_PersistentRef": .data(genpReference.data), "sync": "syna"])
        #expect(any.synchronizable == .any)
    }

    /// C2: kSecUseItemList.
    @Test func useItemListIsParam() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["u_ItemList": ["a"]]))) }
    }

    /// C3: certificate match keys on passwords, and the host match on generic passwords.
    @Test func unsupportedMatchKeysAreUnimplemented() {
        #expect(throws: KeychainStatus.unimplemented) { try statusOf(QueryParser.parseSearch(genp(["m_Issuers": [.data(Data())]]))) }
        #expect(throws: KeychainStatus.unimplemented) { try statusOf(QueryParser.parseSearch(inet(["m_Policy": ["ssl"]]))) }
        #expect(throws: KeychainStatus.unimplemented) {
            try statusOf(QueryParser.parseSearch(genp(["m_HostOrSubdomainOfHost": "example.com"])))
        }
    }

    /// C3 counterpart: the host match is supported for internet passwords.
    @Test func hostMatchOnInternetPasswords() throws {
        let request = try QueryParser.parseSearch(["class": "inet", "m_HostOrSubdomainOfHost": "example.com"])
        #expect(request.hostOrSubdomainOf == "example.com")
    }

    /// §2.2: typed match keys are checked even where they have no effect.
    @Test func matchKeyValueTypes() throws {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["m_ValidOnDate": "today"]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["m_TrustedOnly": 1]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["m_EmailAddressIfPresent": 1]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["m_Policy": "ssl"]))) }
        _ = try QueryParser.parseSearch(genp(["m_ValidOnDate": .null, "m_TrustedOnly": true, "m_SubjectContains": "x"]))
    }

    /// C4: a persistent reference cannot be combined with attribute filters.
    @Test(arguments: [
        ("acct", KeychainValue.string("alice")), ("agrp", "TEAM.g"), ("sync", true), ("sync", false), ("labl", "l"),
    ])
    func persistentReferenceWithFilterIsParam(code: String, value: KeychainValue) {
        let query: QueryDictionary = ["class": "genp", "v_PersistentRef": .data(genpReference.data), .string(code): value]
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(query)) }
    }

    /// C4 counterpart: kSecAttrSynchronizableAny and non-attribute keys are fine.
    @Test func persistentReferenceWithSyncAnyAndReturnKeys() throws {
        let request = try QueryParser.parseSearch(
            ["class": "genp", "v_PersistentRef": .data(genpReference.data), "sync": "syna", "r_Data": true, "nleg": true])
        #expect(request.returns == .data)
    }

    /// C8: return flags without a result pointer are not the parser's concern; the flags are carried.
    @Test func returnFlagsAreCarried() throws {
        let request = try QueryParser.parseSearch(genp(["r_Data": true, "r_Attributes": true, "r_Ref": false]))
        #expect(request.returns == [.data, .attributes])
    }

    /// Legacy rowid references are accepted for lookups.
    @Test func legacyPersistentReferenceIsAccepted() throws {
        let request = try QueryParser.parseSearch(["v_PersistentRef": .data(legacyGenpReference.data)])
        #expect(request.persistentRef?.identity == .legacyRowID(7))
    }

    /// §2.2: kSecValueData is no filter, but must still be data.
    @Test func valueDataInSearch() throws {
        #expect(try QueryParser.parseSearch(genp(["v_Data": .data(secret)])).filters["v_Data"] == nil)
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["v_Data": "pw"]))) }
    }
}
