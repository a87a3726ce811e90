import Foundation
import KeychainModel
import Testing
@testable import Query

/// A key query (`kSecClassKey`) with the given entries.
func keys(_ extra: [KeychainValue: KeychainValue] = [:]) -> QueryDictionary {
    var query: QueryDictionary = ["class": "keys"]
    for (key, value) in extra { query.entries[key] = value }
    return query
}

/// Key items (§1.3.4, §1.4, §7.1, §10.1): defaults, value forms, uniqueness and matching.
@Suite("Key items", .timeLimit(.minutes(10)))
struct KeyItemTests {
    private let zeroDate = Date(timeIntervalSinceReferenceDate: 0)

    /// §1.3.4: a key added without a reference gets the Z/E defaults of its NOT NULL attributes.
    @Test func addWithoutAttributesGetsTheKeyDefaults() throws {
        let request = try QueryParser.parseAdd(keys(["v_Data": .data(secret)]))
        #expect(request.itemClass == .key)
        #expect(request.protection == .whenUnlocked)  // §1.5: ak for keys
        let attributes = request.attributes
        #expect(attributes["kcls"] == .number(0))
        #expect(attributes["klbl"] == .data(Data()))
        #expect(attributes["atag"] == .string(""))
        for code in ["crtr", "type", "bsiz", "esiz", "sync", "tomb"] { #expect(attributes[code] == .number(0), "\(code)") }
        #expect(attributes["sdat"] == .date(zeroDate))
        #expect(attributes["edat"] == .date(zeroDate))
        #expect(attributes["musr"] == .data(Data()))
        #expect(attributes["pdmn"] == .string("ak"))
        for code in ["labl", "alis", "perm", "priv", "sign", "vwht", "tkid", "ggrp", "agrp", "cdat"] {
            #expect(!attributes.contains(code), "\(code)")
        }
    }

    /// §7.1: Apple's key class and type constants are CFStrings of decimal integers, stored as CFNumbers.
    @Test func keyClassAndTypeStringsBecomeNumbers() throws {
        let attributes = try QueryParser.parseAdd(
            keys(["kcls": "1", "type": "73", "bsiz": 256, "esiz": "256", "perm": true])
        ).attributes
        #expect(attributes["kcls"] == .number(1))
        #expect(attributes["type"] == .number(73))
        #expect(attributes["bsiz"] == .number(256))
        #expect(attributes["esiz"] == .number(256))
        #expect(attributes["perm"] == .number(1))
        // A value beyond SInt32 is not the decimal rendering of one: it stays text, as copyNumber keeps it.
        #expect(try QueryParser.parseAdd(keys(["type": "2147483678"])).attributes["type"] == .string("2147483678"))
        #expect(try QueryParser.parseAdd(keys(["type": "42"])).attributes["type"] == .number(42))
    }

    /// The application tag is a Blob (kept as given); the application label is Data (a string becomes bytes).
    @Test func tagKeepsItsTypeAndLabelBecomesData() throws {
        let tag = Data("com.example.key".utf8)
        let attributes = try QueryParser.parseAdd(keys(["atag": .data(tag), "klbl": "label"])).attributes
        #expect(attributes["atag"] == .data(tag))
        #expect(attributes["klbl"] == .data(Data("label".utf8)))
        #expect(try QueryParser.parseAdd(keys(["atag": "com.example.key"])).attributes["atag"] == .string("com.example.key"))
        // A start date must be a CFDate (G5).
        #expect(throws: KeychainStatus.param) { try statusOf(QueryParser.parseAdd(keys(["sdat": "2001"]))) }
    }

    /// G4: password attributes are not key attributes, and key attributes are not password attributes.
    @Test func attributesOfOtherClassesAreNoSuchAttribute() {
        #expect(throws: KeychainStatus.noSuchAttribute) { try statusOf(QueryParser.parseAdd(keys(["acct": "a"]))) }
        #expect(throws: KeychainStatus.noSuchAttribute) { try statusOf(QueryParser.parseSearch(keys(["svce": "s"]))) }
        #expect(throws: KeychainStatus.noSuchAttribute) { try statusOf(QueryParser.parseAdd(genp(["atag": "t"]))) }
        #expect(throws: KeychainStatus.noSuchAttribute) { try statusOf(QueryParser.parseSearch(genp(["kcls": "1"]))) }
        #expect(rejection(try QueryParser.parseAdd(keys(["acct": "a"])))?.rule == .g4)
    }

    /// C3: certificate match keys do not apply to keys.
    @Test func certificateMatchKeysAreUnimplementedForKeys() {
        #expect(throws: KeychainStatus.unimplemented) {
            try statusOf(QueryParser.parseSearch(keys(["m_Issuers": [.data(Data())]])))
        }
        #expect(throws: KeychainStatus.unimplemented) {
            try statusOf(QueryParser.parseSearch(keys(["m_HostOrSubdomainOfHost": "example.com"])))
        }
    }

    /// §1.4: the uniqueness constraint of keys, in Apple's order.
    @Test func uniquenessCodesAreApples() {
        #expect(
            AttributeCatalogue.uniquenessCodes(for: .key)
                == [
                    "kcls", "klbl", "atag", "crtr", "type", "bsiz", "esiz", "sdat", "edat",
                    "agrp", "sync", "vwht", "tkid", "musr", "ggrp",
                ])
    }

    private func uniqueness(_ extra: [KeychainValue: KeychainValue], group: String = "TEAM.g") throws -> Data {
        let base: [KeychainValue: KeychainValue] = ["atag": "tag", "kcls": "1", "type": "73"]
        return try QueryParser.parseAdd(keys(base.merging(extra) { $1 }))
            .attributes(withAccessGroup: group).uniquenessKey(for: .key)
    }

    /// §1.4: items differing only outside the constraint collide; a difference in any part of it does not.
    @Test func keysDifferingOutsideTheConstraintAreDuplicates() throws {
        let base = try uniqueness([:])
        #expect(try uniqueness(["labl": "other label"]) == base)
        #expect(try uniqueness(["pdmn": "dk"]) == base)
        #expect(try uniqueness(["perm": true, "sign": true, "alis": "a", "v_Data": .data(secret)]) == base)
        // The key class and type as numbers are the same values as Apple's string constants.
        #expect(try uniqueness(["kcls": 1, "type": 73]) == base)
        // The tag as data has the same bytes as the tag as a string (a hashed Blob).
        #expect(try uniqueness(["atag": .data(Data("tag".utf8))]) == base)
        let differing: [[KeychainValue: KeychainValue]] = [
            ["kcls": "0"], ["klbl": .data(Data([1]))], ["atag": "other"], ["crtr": 7], ["type": "42"], ["bsiz": 256],
            ["esiz": 256], ["sdat": .date(Date(timeIntervalSinceReferenceDate: 1))],
            ["edat": .date(Date(timeIntervalSinceReferenceDate: 1))], ["sync": true], ["vwht": "view"], ["tkid": "token"],
        ]
        for extra in differing { #expect(try uniqueness(extra) != base, "\(extra)") }
        #expect(try uniqueness([:], group: "TEAM.other") != base)
    }

    private func storedKey(_ extra: [(String, AttributeValue)] = []) throws -> AttributeSet {
        var attributes = try QueryParser.parseAdd(
            keys(["kcls": "1", "type": "73", "bsiz": 256, "atag": .data(Data("tag".utf8)), "klbl": .data(Data([0xAB]))])
        ).attributes(withAccessGroup: "TEAM.g")
        for (code, value) in extra { attributes[code] = value }
        return attributes
    }

    private func matches(_ query: [KeychainValue: KeychainValue]) throws -> Bool {
        try QueryParser.parseSearch(keys(query)).matches(try storedKey())
    }

    /// §10.1: the class and type constants (strings) match the stored numbers, as numbers do.
    @Test func classAndTypeMatchAsStringsOrNumbers() throws {
        #expect(try matches(["kcls": "1"]))
        #expect(try matches(["kcls": 1]))
        #expect(try matches(["kcls": true]))  // a boolean is the number 1
        #expect(try !matches(["kcls": "0"]))
        #expect(try matches(["type": "73"]))
        #expect(try matches(["type": 73]))
        #expect(try !matches(["type": "42"]))
        #expect(try matches(["bsiz": "256", "esiz": 0]))
        #expect(try !matches(["type": "ec"]))  // a non-numeric string is text, never a number
    }

    @Test func tagMatchesByItsBytesAndLabelByItsData() throws {
        #expect(try matches(["atag": "tag"]))
        #expect(try matches(["atag": .data(Data("tag".utf8))]))
        #expect(try !matches(["atag": "Tag"]))
        #expect(try matches(["klbl": .data(Data([0xAB]))]))
        #expect(try !matches(["klbl": .data(Data([0xAB, 0]))]))
        // Absent attributes compare as their defaults: no creator, start date 0.
        #expect(try matches(["crtr": 0, "sdat": .date(zeroDate)]))
        #expect(try !matches(["labl": ""]))
    }

    /// A Ref on a key reads the key's data, as Apple's daemon does; on a password it reads nothing.
    @Test func aReferenceNeedsTheData() throws {
        #expect(try QueryParser.parseSearch(keys(["r_Ref": true])).needsData)
        #expect(try QueryParser.parseSearch(keys(["r_Data": true])).needsData)
        #expect(try !QueryParser.parseSearch(keys(["r_Attributes": true, "r_PersistentRef": true])).needsData)
        #expect(try !QueryParser.parseSearch(genp(["r_Ref": true])).needsData)
    }
}
