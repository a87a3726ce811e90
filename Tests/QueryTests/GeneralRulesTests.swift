import Foundation
import KeychainModel
import Testing
@testable import Query

/// Rules G9–G14, G18, G22 (§3.2, all calls).
@Suite("General rules", .timeLimit(.minutes(10)))
struct GeneralRulesTests {
    typealias Call = KeyClassificationTests.Call

    /// G9: kSecAttrAccessible together with kSecAttrAccessControl, whatever the values.
    @Test(arguments: Call.allCases)
    func accessibleWithAccessControlIsParam(call: Call) {
        let control = AccessControl(protection: .whenUnlocked)
        #expect(throws: KeychainStatus.param) { try call.parse(genp(["pdmn": "ak", "accc": .accessControl(control)])) }
    }

    /// G10: kSecAttrAccessible must be one of the seven classes (the SPI `f` is no item class).
    @Test(arguments: ["ak", "ck", "dk", "aku", "cku", "dku", "akpu"])
    func validProtectionClassesAreAccepted(value: String) throws {
        let request = try QueryParser.parseAdd(genp(["pdmn": .string(value)]))
        #expect(request.protection.rawValue == value)
    }

    /// G10.
    @Test(arguments: [KeychainValue.string("f"), "AK", "whenUnlocked", 6, .data(Data("xx".utf8))])
    func invalidProtectionIsParam(value: KeychainValue) {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(genp(["pdmn": value]))) }
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["pdmn": value]))) }
    }

    /// G11: kSecAttrAccessControl must be a SecAccessControl (KeychainAPITests testBadTypeInParams: add and delete).
    @Test(arguments: Call.allCases)
    func accessControlOfWrongTypeIsParam(call: Call) {
        #expect(throws: KeychainStatus.param) { try call.parse(genp(["accc": "ak"])) }
        #expect(throws: KeychainStatus.param) { try call.parse(genp(["accc": .data(Data([1]))])) }
    }

    /// G12 / A8: kSecValueRef cannot name a password item, and Coffer has no other references yet.
    @Test(arguments: Call.allCases)
    func valueRefIsParam(call: Call) {
        #expect(throws: KeychainStatus.param) { try call.parse(genp(["v_Ref": .unsupported(typeName: "SecKeychainItem")])) }
    }

    /// G13 is the engine's: the request carries the explicit group for the check.
    @Test func explicitAccessGroupIsCarriedForTheEngine() throws {
        #expect(try QueryParser.parseAdd(genp(["agrp": "TEAM.group"])).accessGroup == "TEAM.group")
        #expect(try QueryParser.parseSearch(genp(["agrp": "TEAM.group"])).accessGroup == "TEAM.group")
        #expect(try QueryParser.parseDelete(genp(["agrp": .data(Data("g".utf8))])).search.accessGroup == "g")
        #expect(try QueryParser.parseAdd(genp()).accessGroup == nil)
    }

    /// G14: the internal `clip` attribute is never accepted (KeychainAPITests testNotAllowedToPassInternalAttributes).
    @Test(arguments: Call.allCases)
    func appClipAttributeIsParam(call: Call) {
        #expect(throws: KeychainStatus.param) { try call.parse(genp(["clip": 1])) }
    }

    /// G18: an authentication context with a credential reference.
    @Test(arguments: Call.allCases)
    func contextWithCredentialReferenceIsParam(call: Call) {
        let query = genp(["u_AuthCtx": .unsupported(typeName: "LAContext"), "u_CredRef": .data(Data([1]))])
        #expect(throws: KeychainStatus.param) { try call.parse(query) }
    }

    /// G18 counterpart: either one alone is fine, and carried to the engine. The context is an `LAContext`
    /// as the `Security` module bridges it (its identifier and interaction flag); anything else is -50.
    @Test func contextOrCredentialReferenceAlone() throws {
        let reference = AuthenticationContextReference(context: .random(), interactionNotAllowed: true)
        let context = try QueryParser.parseSearch(genp(["u_AuthCtx": reference.keychainValue]))
        #expect(context.authentication.contextReference == reference)
        #expect(context.authenticationUI == .fail)
        #expect(throws: KeychainStatus.param) {
            try statusOf(QueryParser.parseSearch(genp(["u_AuthCtx": .unsupported(typeName: "NSObject")])))
        }
        let credential = try QueryParser.parseSearch(genp(["u_CredRef": .data(Data([1]))]))
        #expect(credential.authentication.credentialReference == Data([1]))
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["u_CredRef": "handle"]))) }
    }

    /// G22: Skip is valid only for SecItemCopyMatching (U14, D6 likewise).
    @Test(arguments: [Call.add, .updateQuery, .delete])
    func authenticationUISkipIsParamOutsideCopyMatching(call: Call) {
        #expect(throws: KeychainStatus.param) { try call.parse(genp(["u_AuthUI": "u_AuthUIS"])) }
    }

    /// §6.4: UI values, the deprecated kSecUseNoAuthenticationUI, and the prompt.
    @Test func authenticationSettings() throws {
        #expect(try QueryParser.parseSearch(genp()).authenticationUI == .allow)
        #expect(try QueryParser.parseSearch(genp(["u_AuthUI": "u_AuthUIS"])).authenticationUI == .skip)
        #expect(try QueryParser.parseSearch(genp(["u_AuthUI": "u_AuthUIF"])).authenticationUI == .fail)
        #expect(try QueryParser.parseAdd(genp(["u_AuthUI": "u_AuthUIA"])).authentication.ui == .allow)
        #expect(try QueryParser.parseDelete(genp(["u_NoAuthUI": true])).search.authenticationUI == .fail)
        #expect(try QueryParser.parseSearch(genp(["u_OpPrompt": "Unlock"])).authentication.operationPrompt == "Unlock")
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(genp(["u_AuthUI": true]))) }
    }

    /// §2.2: private `u_` keys need an Apple entitlement.
    @Test(arguments: ["u_SystemKeychain", "u_CallerName", "u_TokenRawItems"])
    func privateUseKeysAreMissingEntitlement(key: String) {
        #expect(throws: KeychainStatus.missingEntitlement) { try statusOf(QueryParser.parseSearch(genp([.string(key): true]))) }
    }

    /// §2.2: kSecUseTombstones accepts booleans, numbers and numeric strings.
    @Test func useTombstonesValues() throws {
        #expect(try QueryParser.parseDelete(genp(["u_Tomb": true])).search.useTombstones == true)
        #expect(try QueryParser.parseDelete(genp(["u_Tomb": 0])).search.useTombstones == false)
        #expect(try QueryParser.parseDelete(genp(["u_Tomb": "1"])).search.useTombstones == true)
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseDelete(genp(["u_Tomb": .data(Data())]))) }
    }

    /// kSecValuePersistentRef must be a valid reference.
    @Test func malformedPersistentRefIsParam() {
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseSearch(["class": "genp", "v_PersistentRef": "genp"])) }
        #expect(throws: KeychainStatus.param) {
            try statusOf(QueryParser.parseSearch(["class": "genp", "v_PersistentRef": .data(Data(count: 20))]))
        }
    }

    /// §2.2: the class may come from the persistent reference; a conflicting class is -25306.
    @Test func classFromPersistentReference() throws {
        let request = try QueryParser.parseSearch(["v_PersistentRef": .data(genpReference.data)])
        #expect(request.itemClass == .genericPassword)
        #expect(request.persistentRef == genpReference)
        #expect(throws: KeychainStatus.noSuchClass) {
            try statusOf(QueryParser.parseSearch(["class": "inet", "v_PersistentRef": .data(genpReference.data)]))
        }
        let apls = Data("apls".utf8) + Data(count: 16)
        #expect(throws: KeychainStatus.noSuchClass) { try statusOf(QueryParser.parseSearch(["v_PersistentRef": .data(apls)])) }
    }
}
