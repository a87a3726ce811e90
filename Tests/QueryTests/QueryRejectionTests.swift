import Foundation
import KeychainModel
import Testing
@testable import Query

/// Every rejection names its rule, its key and a reason with keys by Apple's names.
@Suite("Query rejections say why", .timeLimit(.minutes(10)))
struct QueryRejectionTests {
    /// Expects `found` to be a rejection with exactly these parts.
    private func expect(
        _ found: QueryRejection?, _ status: KeychainStatus, rule: KeychainRule?, key: String?, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(found?.status == status, sourceLocation: sourceLocation)
        #expect(found?.rule == rule, sourceLocation: sourceLocation)
        #expect(found?.key == key, sourceLocation: sourceLocation)
        #expect(found?.message == message, sourceLocation: sourceLocation)
    }

    private func update(_ query: QueryDictionary, _ changes: QueryDictionary) -> QueryRejection? {
        rejection(try QueryParser.parseUpdate(query: query, attributesToUpdate: changes))
    }

    @Test func messageIsRuleAndReasonAndDescriptionAddsTheStatus() {
        let found = QueryRejection(
            status: .noSuchAttribute, rule: .g4, key: "srvr",
            reason: "kSecAttrServer is not an attribute of kSecClassGenericPassword")
        #expect(found.message == "G4: kSecAttrServer is not an attribute of kSecClassGenericPassword")
        #expect(found.description == "G4: kSecAttrServer is not an attribute of kSecClassGenericPassword (errSecNoSuchAttr, -25303)")
        let ruleless = QueryRejection(status: .param, rule: nil, key: nil, reason: "no rule")
        #expect(ruleless.message == "no rule")
    }

    @Test func statusOnlyHandsOnTheStatus() {
        #expect(throws: KeychainStatus.noSuchClass) { try QueryRejection.statusOnly(QueryParser.parseSearch(["class": "apls"])) }
        #expect((try? QueryRejection.statusOnly(QueryParser.parseSearch(genp())))?.itemClass == .genericPassword)
    }

    @Test func foreignAttributeIsG4() {
        expect(
            rejection(try QueryParser.parseAdd(["class": "genp", "srvr": "example.com"])), .noSuchAttribute,
            rule: .g4, key: "srvr", message: "G4: kSecAttrServer is not an attribute of kSecClassGenericPassword")
        expect(
            rejection(try QueryParser.parseSearch(["class": "genp", "zzzz": 1])), .noSuchAttribute,
            rule: .g4, key: "zzzz", message: #"G4: "zzzz" is not an attribute of kSecClassGenericPassword"#)
    }

    @Test func unconvertibleValueIsG5() {
        expect(
            rejection(try QueryParser.parseAdd(genp(["acct": .date(Date())]))), .param, rule: .g5, key: "acct",
            message: "G5: kSecAttrAccount cannot hold CFDate; it takes a CFString, CFData or CFNumber")
        expect(
            rejection(try QueryParser.parseSearch(genp(["cdat": "yesterday"]))), .param, rule: .g5, key: "cdat",
            message: "G5: kSecAttrCreationDate cannot hold CFString; it takes a CFDate")
        expect(
            rejection(try AttributeValue.coerce(.data(Data(count: 3)), to: .uuid)), .param, rule: .g5, key: nil,
            message: "G5: this attribute cannot hold CFData (3 bytes); it takes 16 bytes of CFData, a CFUUID or kCFNull")
    }

    @Test func unknownClassIsG3() {
        expect(
            rejection(try QueryParser.parseSearch(["class": "password"])), .noSuchClass, rule: .g3, key: "class",
            message: #"G3: kSecClass value "password" is not a keychain item class"#)
        expect(
            rejection(try QueryParser.parseSearch(["class": "apls"])), .noSuchClass, rule: .g3, key: "class",
            message: "G3: kSecClass value kSecClassAppleSharePassword is not a keychain item class")
        let apls = Data("apls".utf8) + Data(count: 16)
        expect(
            rejection(try QueryParser.parseSearch(["v_PersistentRef": .data(apls)])), .noSuchClass, rule: .g3,
            key: "v_PersistentRef",
            message: "G3: kSecValuePersistentRef names kSecClassAppleSharePassword, which is not a keychain item class")
    }

    @Test func missingClassIsG2() {
        expect(
            rejection(try QueryParser.parseSearch(["acct": "a"])), .param, rule: .g2, key: "class",
            message: "G2: kSecClass is missing, and there is no kSecValuePersistentRef to take it from")
        expect(
            rejection(try QueryParser.parseSearch(["class": 5])), .param, rule: .g2, key: "class",
            message: "G2: kSecClass must be a CFString such as kSecClassGenericPassword; got CFNumber")
    }

    @Test func unknownKeyIsG6WithTheRawKeyQuoted() {
        expect(
            rejection(try QueryParser.parseSearch(genp(["r_Whatever": true]))), .param, rule: .g6, key: "r_Whatever",
            message: #"G6: "r_Whatever" is not a key the keychain knows"#)
        expect(
            rejection(try QueryParser.parseSearch(genp([.bool(true): "x"]))), .param, rule: .g6, key: nil,
            message: "G6: a key must be a CFString; got a CFBoolean key")
    }

    @Test func returnAndMatchLimitTypesAreG7AndG8() {
        expect(
            rejection(try QueryParser.parseSearch(genp(["r_Data": 1]))), .param, rule: .g7, key: "r_Data",
            message: "G7: kSecReturnData must be a CFBoolean (kCFBooleanTrue or kCFBooleanFalse); got CFNumber")
        expect(
            rejection(try QueryParser.parseSearch(genp(["m_Limit": "m_LimitSome"]))), .param, rule: .g8,
            key: "m_Limit",
            message: #"G8: kSecMatchLimit must be a CFNumber, kSecMatchLimitOne or kSecMatchLimitAll; got "m_LimitSome""#)
    }

    @Test func accessibleWithAccessControlIsG9() {
        let control = KeychainValue.accessControl(AccessControl(protection: .whenUnlocked))
        expect(
            rejection(try QueryParser.parseAdd(genp(["pdmn": "ak", "accc": control]))), .param, rule: .g9, key: "pdmn",
            message:
                "G9: kSecAttrAccessible and kSecAttrAccessControl cannot both be given: the access control carries the protection")
        #expect(update(genp(), ["pdmn": "ak", "accc": control])?.rule == .g9)
    }

    @Test func protectionAndAccessControlValuesAreG10AndG11() {
        expect(
            rejection(try QueryParser.parseAdd(genp(["pdmn": "f"]))), .param, rule: .g10, key: "pdmn",
            message: "G10: kSecAttrAccessible value kSecAttrAccessibleUntilReboot is not a protection class of keychain items")
        expect(
            rejection(try QueryParser.parseAdd(genp(["pdmn": 1]))), .param, rule: .g10, key: "pdmn",
            message: "G10: kSecAttrAccessible cannot hold CFNumber; it takes a CFString, UTF-8 CFData or CFUUID")
        expect(
            rejection(try QueryParser.parseDelete(genp(["accc": "ak"]))), .param, rule: .g11, key: "accc",
            message: "G11: kSecAttrAccessControl must be a SecAccessControl; got CFString")
    }

    @Test func clientRulesNameTheirKeys() {
        #expect(rejection(try QueryParser.parseAdd(genp(["v_Ref": .unsupported(typeName: "SecKey")])))?.rule == .g12)
        expect(
            rejection(try QueryParser.parseSearch(genp(["clip": 1]))), .param, rule: .g14, key: "clip",
            message: "G14: kSecAttrAppClipItem is set by the keychain and may not be passed")
        let both = genp(["u_AuthCtx": .unsupported(typeName: "LAContext"), "u_CredRef": .data(Data([1]))])
        #expect(rejection(try QueryParser.parseSearch(both))?.rule == .g18)
        expect(
            rejection(try QueryParser.parseAdd(genp(["u_AuthUI": "u_AuthUIS"]))), .param, rule: .g22, key: "u_AuthUI",
            message: "G22: kSecUseAuthenticationUISkip is for SecItemCopyMatching only, not SecItemAdd")
        #expect(update(genp(["u_AuthUI": "u_AuthUIS"]), ["labl": "x"])?.rule == .u14)
        #expect(rejection(try QueryParser.parseDelete(genp(["u_AuthUI": "u_AuthUIS"])))?.rule == .d6)
    }

    /// G15: the 128-key cap.
    @Test func keyCapIsG15() {
        let schema = AttributeCatalogue.schemaEntryCount(for: .genericPassword)
        var query: QueryDictionary = ["class": "genp"]
        for index in 0..<(128 - schema) { query[String(format: "m_Extra%03d", index)] = true }
        expect(
            rejection(try QueryParser.parseSearch(query)), .param, rule: .g15, key: nil,
            message:
                "G15: \(128 - schema + 1) keys outside the schema of kSecClassGenericPassword, with its \(schema) schema "
                + "entries, exceed Apple's cap of 128")
    }

    @Test func addRules() {
        expect(
            rejection(try QueryParser.parseAdd(genp(["v_Data": "pw"]))), .param, rule: .a3, key: "v_Data",
            message: "A3: kSecValueData must be CFData; got CFString")
        expect(
            rejection(try QueryParser.parseAdd(genp(["accc": .accessControl(biometricControl), "sync": true]))), .param,
            rule: .a4, key: "sync",
            message:
                "A4: an item whose kSecAttrAccessControl requires user authentication cannot have kSecAttrSynchronizable = true")
        expect(
            rejection(try QueryParser.parseAdd(genp(["v_PersistentRef": .data(legacyGenpReference.data)]))), .param,
            rule: .a6, key: "v_PersistentRef", message: "A6: SecItemAdd takes no legacy 12-byte kSecValuePersistentRef")
        expect(
            rejection(try QueryParser.parseAdd(genp(["m_Limit": "m_LimitAll"]))), .param, rule: .a9, key: "m_Limit",
            message: "A9: SecItemAdd takes no kSecMatchLimit; Coffer refuses it rather than add nothing")
    }

    @Test func searchRules() {
        expect(
            rejection(try QueryParser.parseSearch(genp(["u_ItemList": ["a"]]))), .param, rule: .c2, key: "u_ItemList",
            message: "C2: SecItemCopyMatching does not support kSecUseItemList")
        expect(
            rejection(try QueryParser.parseSearch(genp(["m_Issuers": [.data(Data())]]))), .unimplemented, rule: .c3,
            key: "m_Issuers",
            message: "C3: kSecMatchIssuers applies only to certificates and identities, not to kSecClassGenericPassword")
        expect(
            rejection(try QueryParser.parseSearch(genp(["m_HostOrSubdomainOfHost": "example.com"]))), .unimplemented,
            rule: .c3, key: "m_HostOrSubdomainOfHost",
            message: "C3: kSecMatchHostOrSubdomainOfHost applies only to internet passwords, not to kSecClassGenericPassword")
        let byReference: QueryDictionary = ["class": "genp", "acct": "a", "v_PersistentRef": .data(genpReference.data)]
        expect(
            rejection(try QueryParser.parseSearch(byReference)), .param, rule: .c4, key: "v_PersistentRef",
            message: "C4: kSecValuePersistentRef cannot be combined with attribute filters (kSecAttrAccount)")
    }

    @Test func updateRules() {
        expect(
            update(genp(["r_Attributes": true]), ["labl": "x"]), .param, rule: .u1, key: "r_Attributes",
            message: "U1: SecItemUpdate returns nothing, so its query may set no kSecReturn… key to true")
        expect(
            update(genp(["m_Limit": "m_LimitAll"]), ["labl": "x"]), .param, rule: .u2, key: "m_Limit",
            message: "U2: SecItemUpdate's query takes no kSecMatch… keys; got kSecMatchLimit")
        #expect(update(genp(["u_ItemList": ["a"]]), ["labl": "x"])?.rule == .u3)
        expect(
            update(genp(), ["m_Limit": "x"]), .noSuchAttribute, rule: .u4, key: "m_Limit",
            message: "U4: kSecMatchLimit is not an attribute of kSecClassGenericPassword")
        expect(
            update(genp(), ["v_Data": "pw"]), .param, rule: .u5, key: "v_Data",
            message: "U5: kSecValueData must be CFData; got CFString")
        expect(
            update(genp(), ["ggrp": "shared"]), .param, rule: .u7, key: "ggrp",
            message: "U7: kSecAttrSharingGroup cannot be changed by SecItemUpdate")
        let legacy: QueryDictionary = ["class": "genp", "svce": "s", "v_PersistentRef": .data(legacyGenpReference.data)]
        expect(
            update(legacy, ["labl": "x"]), .param, rule: .u8, key: "v_PersistentRef",
            message: "U8: a legacy 12-byte kSecValuePersistentRef cannot be combined with attribute filters (kSecAttrService)")
        #expect(update(genp(), ["accc": .accessControl(biometricControl), "sync": true])?.rule == .u13)
    }

    @Test func deleteRules() {
        expect(
            rejection(try QueryParser.parseDelete(genp(["m_Limit": "m_LimitOne"]))), .param, rule: .d1, key: "m_Limit",
            message: "D1: SecItemDelete deletes every match: its kSecMatchLimit may only be kSecMatchLimitAll")
        expect(
            rejection(try QueryParser.parseDelete(genp(["m_CaseInsensitive": true]))), .param, rule: .d1, key: "m_CaseInsensitive",
            message: "D1: SecItemDelete takes no kSecMatch… keys; got kSecMatchCaseInsensitive")
        let legacy: QueryDictionary = ["class": "genp", "svce": "s", "v_PersistentRef": .data(legacyGenpReference.data)]
        expect(
            rejection(try QueryParser.parseDelete(legacy)), .param, rule: .d2, key: "v_PersistentRef",
            message: "D2: a legacy 12-byte kSecValuePersistentRef cannot be combined with attribute filters (kSecAttrService)")
    }

    @Test func sizeLimitsNameTheKeyAndTheSize() {
        let big = KeychainValue.data(Data(count: SizeLimits.valueData + 1))
        expect(
            rejection(try QueryParser.parseAdd(genp(["v_Data": big]))), .param, rule: nil, key: "v_Data",
            message: "kSecValueData is 16777217 bytes; Coffer accepts at most 16777216 (16 MiB)")
        #expect(update(genp(), ["v_Data": big])?.key == "v_Data")
        let long = KeychainValue.string(String(repeating: "a", count: SizeLimits.attributeValue + 1))
        expect(
            rejection(try QueryParser.parseAdd(genp(["labl": long]))), .param, rule: nil, key: "labl",
            message: "kSecAttrLabel is 65537 bytes; Coffer accepts at most 65536 (64 KiB in one attribute)")
        #expect(update(genp(), ["gena": long])?.key == "gena")
    }

    @Test func entitlementsAndAccessControlFlags() {
        expect(
            rejection(try QueryParser.parseSearch(genp(["u_SystemKeychain": true]))), .missingEntitlement, rule: nil,
            key: "u_SystemKeychain",
            message: "kSecUseSystemKeychain needs an Apple-private entitlement, which Coffer never grants")
        expect(
            rejection(try AccessControl.create(protection: .whenUnlocked, flags: [.or, .and])), .param, rule: nil, key: nil,
            message: "kSecAccessControlOr and kSecAccessControlAnd cannot be combined")
        expect(
            rejection(try AccessControl.create(protection: "nope", flags: [])), .param, rule: .g10, key: nil,
            message: #"G10: "nope" is not a protection class of keychain items"#)
    }
}
