import Foundation
import KeychainModel
import Testing
@testable import Query

/// SecItemUpdate rules (U1–U5, U7, U8, U13, U14) and the attributesToUpdate catalogue (§2.1, §10.2, §10.3).
@Suite("SecItemUpdate", .timeLimit(.minutes(10)))
struct UpdateRulesTests {
    private func update(_ query: QueryDictionary, _ changes: QueryDictionary) throws(KeychainStatus) -> UpdateRequest {
        try statusOf(QueryParser.parseUpdate(query: query, attributesToUpdate: changes))
    }

    private func update(_ changes: QueryDictionary) throws(KeychainStatus) -> UpdateRequest {
        try update(genp(), changes)
    }

    @Test func searchMatchesEverythingAndReturnsNothing() throws {
        let request = try update(["labl": "new", "v_Data": .data(secret)])
        #expect(request.search.limit == .all)
        #expect(request.search.returns.isEmpty)
        #expect(request.search.filters["acct"] == .string("alice"))
        #expect(request.changes["labl"] == .string("new"))
        #expect(request.newValueData == secret)
    }

    /// §10.3: an empty attributesToUpdate is valid.
    @Test func emptyChangesAreValid() throws {
        #expect(try update([:]).changes.isEmpty)
    }

    /// U1: any return flag set to true in the query.
    @Test(arguments: ["r_Data", "r_Attributes", "r_Ref", "r_PersistentRef"])
    func returnKeyInQueryIsParam(key: String) throws {
        #expect(throws: KeychainStatus.param) { try update(genp([.string(key): true]), ["labl": "x"]) }
        _ = try update(genp([.string(key): false]), ["labl": "x"])
    }

    /// U2: any match key in the query, including kSecMatchLimitAll.
    @Test(arguments: [("m_Limit", KeychainValue.string("m_LimitAll")), ("m_Limit", 1), ("m_CaseInsensitive", true)])
    func matchKeyInQueryIsParam(key: String, value: KeychainValue) {
        #expect(throws: KeychainStatus.param) { try update(genp([.string(key): value]), ["labl": "x"]) }
    }

    /// U3: kSecUseItemList in the query.
    @Test func useItemListInQueryIsParam() {
        #expect(throws: KeychainStatus.param) { try update(genp(["u_ItemList": ["a"]]), ["labl": "x"]) }
    }

    /// U4: any non-attribute key in attributesToUpdate other than kSecValueData.
    @Test(arguments: ["class", "r_Data", "m_Limit", "u_CredRef", "u_AuthUI", "v_PersistentRef", "v_Ref", "srvr", "zzzz"])
    func nonAttributeKeyInChangesIsNoSuchAttribute(key: String) {
        #expect(throws: KeychainStatus.noSuchAttribute) { try update([.string(key): "x"]) }
    }

    /// U4 detail: a non-string key in attributesToUpdate is -50.
    @Test func nonStringKeyInChangesIsParam() {
        #expect(throws: KeychainStatus.param) { try update([.number(1): "x"]) }
    }

    /// U5: kSecValueData must be CFData (si-11-update-data: CFString and NULL fail).
    @Test(arguments: [KeychainValue.string("pw"), .null, 1])
    func valueDataInChangesMustBeData(value: KeychainValue) {
        #expect(throws: KeychainStatus.param) { try update(["v_Data": value]) }
    }

    /// U7: sharing groups cannot be changed; `clip` never.
    @Test func sharingGroupAndAppClipInChangesAreParam() {
        #expect(throws: KeychainStatus.param) { try update(["ggrp": "shared"]) }
        #expect(throws: KeychainStatus.param) { try update(["clip": 0]) }
    }

    /// U8: a legacy rowid reference cannot be combined with attribute filters.
    @Test func legacyReferenceWithFiltersIsParam() throws {
        let legacy = KeychainValue.data(legacyGenpReference.data)
        #expect(throws: KeychainStatus.param) { try update(["class": "genp", "acct": "a", "v_PersistentRef": legacy], ["labl": "x"]) }
        let alone = try update(["v_PersistentRef": legacy], ["labl": "x"])
        #expect(alone.search.persistentRef == legacyGenpReference)
    }

    /// §9: UUID references accept additional filters in update and delete.
    @Test func uuidReferenceWithFiltersIsAccepted() throws {
        let request = try update(
            ["class": "genp", "acct": "a", "v_PersistentRef": .data(genpReference.data)], ["labl": "x"])
        #expect(request.search.filters["acct"] == .string("a"))
        #expect(request.search.synchronizable == .any)
    }

    /// U13: a new access control with constraints plus sync = true.
    @Test func constrainedAccessControlWithSyncIsParam() {
        let control = KeychainValue.accessControl(biometricControl)
        #expect(throws: KeychainStatus.param) { try update(["accc": control, "sync": true]) }
        #expect(throws: KeychainStatus.param) { try update(genp(["sync": true]), ["accc": control]) }
    }

    /// U14: Skip.
    @Test func skipIsParam() {
        #expect(throws: KeychainStatus.param) { try update(genp(["u_AuthUI": "u_AuthUIS"]), ["labl": "x"]) }
    }

    /// §2.1: musr in the changes is silently dropped; bookkeeping attributes are not updatable.
    @Test func multiUserAndBookkeepingAreDropped() throws {
        let request = try update(["musr": .data(Data(count: 16)), "persistref": .data(Data(count: 16)), "tomb": 1, "labl": "x"])
        #expect(request.changes.codes == ["labl"])
    }

    /// §10.2: a caller's creation date is applied, its modification date is not.
    @Test func creationDateIsAppliedModificationDateIsNot() throws {
        let date = Date(timeIntervalSinceReferenceDate: 10)
        let request = try update(["cdat": .date(date), "mdat": .date(date)])
        #expect(request.changes["cdat"] == .date(date))
        #expect(!request.changes.contains("mdat"))
    }

    /// The group, protection and access control are separate fields for the engine (U6, re-encryption).
    @Test func groupProtectionAndAccessControl() throws {
        let moved = try update(["agrp": "TEAM.other", "pdmn": "ck"])
        #expect(moved.newAccessGroup == "TEAM.other")
        #expect(moved.newProtection == .afterFirstUnlock)
        #expect(moved.changes.isEmpty)
        let controlled = try update(["accc": .accessControl(biometricControl)])
        #expect(controlled.newAccessControl == biometricControl)
        #expect(controlled.newProtection == .whenUnlocked)
        #expect(throws: KeychainStatus.param) { try update(["pdmn": "ak", "accc": .accessControl(biometricControl)]) }
        #expect(throws: KeychainStatus.param) { try update(["pdmn": "f"]) }
        #expect(throws: KeychainStatus.param) { try update(["accc": "ak"]) }
    }

    /// §2.2: kSecAttrSynchronizableAny in the changes is ignored; other values become 0/1.
    @Test func synchronizableInChanges() throws {
        #expect(try update(["sync": "syna"]).changes.isEmpty)
        #expect(try update(["sync": true]).changes["sync"] == .number(1))
    }

    /// A11 in the changes: making an item synchronizable and ThisDeviceOnly at once is accepted.
    @Test func synchronizableThisDeviceOnlyChangeIsAccepted() throws {
        let request = try update(["sync": 1, "pdmn": "aku"])
        #expect(request.changes["sync"] == .number(1))
        #expect(request.newProtection == .whenUnlockedThisDeviceOnly)
    }

    /// G4/G5 apply to the changes.
    @Test func changesAreValidatedLikeAttributes() {
        #expect(throws: KeychainStatus.noSuchAttribute) { try update(inet(), ["svce": "x"]) }
        #expect(throws: KeychainStatus.param) { try update(["acct": .date(Date())]) }
    }
}
