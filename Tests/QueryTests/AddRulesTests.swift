import Foundation
import KeychainModel
import Testing
@testable import Query

/// SecItemAdd rules (A3–A11) and the §1.5 defaults.
@Suite("SecItemAdd", .timeLimit(.minutes(10)))
struct AddRulesTests {
    @Test func genericPasswordDefaults() throws {
        let request = try QueryParser.parseAdd(["class": "genp", "acct": "alice", "v_Data": .data(secret)])
        #expect(request.itemClass == .genericPassword)
        #expect(request.valueData == secret)
        #expect(request.protection == .whenUnlocked)
        #expect(request.accessGroup == nil)  // the engine fills the caller's default group
        #expect(request.accessControl == nil)
        #expect(request.returns.isEmpty)
        let attributes = request.attributes
        #expect(attributes["acct"] == .string("alice"))
        #expect(attributes["svce"] == .string(""))  // NOT NULL, E default
        #expect(attributes["pdmn"] == .string("ak"))
        #expect(attributes["sync"] == .number(0))
        #expect(attributes["tomb"] == .number(0))
        #expect(attributes["musr"] == .data(Data()))
        #expect(!attributes.contains("agrp"))
        #expect(!attributes.contains("accc"))
        #expect(!attributes.contains("cdat"))
        #expect(!request.isSynchronizable)
    }

    @Test func internetPasswordDefaults() throws {
        let attributes = try QueryParser.parseAdd(["class": "inet", "srvr": "example.com"]).attributes
        for code in ["acct", "sdmn", "atyp", "path"] { #expect(attributes[code] == .string("")) }
        #expect(attributes["ptcl"] == .number(0))
        #expect(attributes["port"] == .number(0))
        #expect(attributes["srvr"] == .string("example.com"))
    }

    @Test func attributesKeepTheirTypes() throws {
        let attributes = try QueryParser.parseAdd(
            inet(["ptcl": "htps", "port": "443", "labl": .data(Data("l".utf8)), "invi": true])
        ).attributes
        #expect(attributes["ptcl"] == .string("htps"))
        #expect(attributes["port"] == .number(443))
        #expect(attributes["labl"] == .data(Data("l".utf8)))
        #expect(attributes["invi"] == .number(1))
        let genpAttributes = try QueryParser.parseAdd(genp(["gena": 1])).attributes
        #expect(genpAttributes["gena"] == .number(1))
    }

    /// §1.5: caller-supplied dates are discarded; the engine stamps both.
    @Test func creationAndModificationDatesAreDiscarded() throws {
        let past = Date(timeIntervalSinceReferenceDate: 0)
        let attributes = try QueryParser.parseAdd(genp(["cdat": .date(past), "mdat": .date(past)])).attributes
        #expect(!attributes.contains("cdat"))
        #expect(!attributes.contains("mdat"))
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp(["cdat": "yesterday"]))) }
    }

    /// §1.5: bookkeeping attributes are the engine's; musr is always the caller's own view.
    @Test func bookkeepingAttributesAreDiscarded() throws {
        let attributes = try QueryParser.parseAdd(
            genp(["UUID": "x", "tomb": 1, "sha1": .data(Data(count: 20)), "musr": .data(Data(count: 16))])
        ).attributes
        #expect(!attributes.contains("sha1"))
        #expect(!attributes.contains("UUID"))
        #expect(attributes["tomb"] == .number(0))
        #expect(attributes["musr"] == .data(Data()))
    }

    /// §2.1: `persistref` is not four characters long, so in a query it is classified by its first letter → -50.
    @Test func persistentReferenceAttributeKeyIsParamInQueries() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp(["persistref": .data(Data(count: 16))]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["persistref": .data(Data(count: 16))]))) }
    }

    /// Sharing groups need an entitlement Coffer never grants.
    @Test func sharingGroupOnAddIsMissingEntitlement() {
        #expect(throws: KeychainStatus.missingEntitlement) { try statusOf(QueryParser.parseAdd(genp(["ggrp": "shared"]))) }
    }

    @Test func explicitProtectionAndAccessControl() throws {
        let protected = try QueryParser.parseAdd(genp(["pdmn": "cku"]))
        #expect(protected.protection == .afterFirstUnlockThisDeviceOnly)
        #expect(protected.attributes["pdmn"] == .string("cku"))
        let control = try QueryParser.parseAdd(genp(["accc": .accessControl(biometricControl)]))
        #expect(control.protection == .whenUnlocked)
        #expect(control.accessControl == biometricControl)
        #expect(control.attributes["accc"] == .accessControl(biometricControl))
        #expect(control.attributes["pdmn"] == .string("ak"))
    }

    /// §1.5: certificates default to `dk`, the apsd group to `dku`.
    @Test func defaultProtectionExceptions() throws {
        #expect(try QueryParser.parseAdd(["class": "cert"]).protection == .always)
        #expect(try QueryParser.parseAdd(genp(["agrp": "com.apple.apsd"])).protection == .alwaysThisDeviceOnly)
    }

    /// §1.5: sync true/1/"1" → 1; false, absent and kSecAttrSynchronizableAny → 0.
    @Test(
        arguments: [
            (KeychainValue.bool(true), 1), (1, 1), ("1", 1), (false, 0), (0, 0), ("0", 0), ("syna", 0),
        ] as [(KeychainValue, Int64)])
    func synchronizableOnAdd(value: KeychainValue, stored: Int64) throws {
        let request = try QueryParser.parseAdd(genp(["sync": value]))
        #expect(request.attributes["sync"] == .number(stored))
        #expect(request.isSynchronizable == (stored == 1))
    }

    @Test func synchronizableMustBeAFlag() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp(["sync": "yes"]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp(["sync": .date(Date())]))) }
    }

    /// A3: kSecValueData must be CFData.
    @Test(arguments: [KeychainValue.string("password"), .null, 5, ["a"]])
    func valueDataMustBeData(value: KeychainValue) {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp(["v_Data": value]))) }
    }

    /// A4: constraints plus kSecAttrSynchronizable = kCFBooleanTrue.
    @Test func constrainedAccessControlCannotSyncWithBooleanTrue() {
        #expect(throws: KeychainStatus.param) {
            try statusOf(QueryParser.parseAdd(genp(["accc": .accessControl(biometricControl), "sync": true])))
        }
    }

    /// A4 is keyed on the exact boolean: the number 1 passes, as in Apple's client.
    @Test func constrainedAccessControlWithNumericSyncPasses() throws {
        let request = try QueryParser.parseAdd(genp(["accc": .accessControl(biometricControl), "sync": 1]))
        #expect(request.isSynchronizable)
    }

    /// A4 needs constraints: an access control without them can sync.
    @Test func unconstrainedAccessControlCanSync() throws {
        let control = AccessControl(protection: .afterFirstUnlock, flags: .privateKeyUsage)
        let request = try QueryParser.parseAdd(genp(["accc": .accessControl(control), "sync": true]))
        #expect(request.isSynchronizable)
    }

    /// A6: a legacy rowid persistent reference is rejected; the UUID form is ignored.
    @Test func persistentReferenceOnAdd() throws {
        #expect(throws: KeychainStatus.param) {
            try statusOf(QueryParser.parseAdd(genp(["v_PersistentRef": .data(legacyGenpReference.data)])))
        }
        let request = try QueryParser.parseAdd(genp(["v_PersistentRef": .data(genpReference.data)]))
        #expect(request.attributes["acct"] == .string("alice"))
    }

    /// A8: password items cannot be added by reference.
    @Test func addingByReferenceIsParam() {
        #expect(throws: KeychainStatus.param) {
            try statusOf(QueryParser.parseAdd(["class": "genp", "v_Ref": .unsupported(typeName: "SecKeychainItem")]))
        }
    }

    /// A9, as decided: match keys and kSecUseItemList are not add parameters → -50 (not a silent no-op).
    @Test(arguments: ["m_Limit", "m_LimitAll", "m_CaseInsensitive", "m_Whatever", "u_ItemList"])
    func searchKeysOnAddAreParam(key: String) {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp([.string(key): "m_LimitAll"]))) }
    }

    /// A11: a synchronizable item with a ThisDeviceOnly class is accepted and stored as asked (Apple's
    /// daemon has no check; the item never leaves the device).
    @Test(arguments: ["aku", "cku", "dku", "akpu"])
    func synchronizableThisDeviceOnlyIsAccepted(protection: String) throws {
        let request = try QueryParser.parseAdd(genp(["sync": true, "pdmn": .string(protection)]))
        #expect(request.isSynchronizable)
        #expect(request.protection.rawValue == protection)
        let control = AccessControl(protection: ProtectionClass(rawValue: protection)!)
        let controlled = try QueryParser.parseAdd(genp(["sync": 1, "accc": .accessControl(control)]))
        #expect(controlled.isSynchronizable)
        #expect(controlled.protection.rawValue == protection)
    }

    /// Migratory classes may sync; ThisDeviceOnly items that do not sync are fine.
    @Test func synchronizableMigratoryIsAccepted() throws {
        #expect(try QueryParser.parseAdd(genp(["sync": true, "pdmn": "ck"])).isSynchronizable)
        #expect(try QueryParser.parseAdd(genp(["sync": false, "pdmn": "aku"])).protection == .whenUnlockedThisDeviceOnly)
    }

    @Test func returnFlagsAreCarried() throws {
        let request = try QueryParser.parseAdd(genp(["r_Attributes": true, "r_PersistentRef": true, "r_Data": false]))
        #expect(request.returns == [.attributes, .persistentRef])
    }

    /// §2.2: identities are added only by reference, which Query cannot represent.
    @Test func identityWithoutReferenceIsParam() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(["class": "idnt"])) }
    }

    @Test func storedAttributesIncludeTheSettledGroup() throws {
        let request = try QueryParser.parseAdd(genp())
        #expect(request.attributes(withAccessGroup: "TEAM.app")["agrp"] == .string("TEAM.app"))
    }
}
