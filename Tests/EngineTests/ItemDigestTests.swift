import Foundation
import ItemStore
import KeychainModel
import Keystore
import Query
import Testing
@testable import Engine

/// The `sha1` attribute (reference §5.6): what goes into it, its exact bytes, and how the engine keeps it.
@Suite("Item digest (sha1, §5.6)", .timeLimit(.minutes(10)))
struct ItemDigestTests {
    /// The generic password of the worked example below, as the engine stores it after an add at
    /// `CFAbsoluteTime` 1.5 (the Z/E defaults `sync`, `tomb`, `musr` filled in, `pdmn` defaulted to `ak`).
    private static let exampleAttributes = AttributeSet([
        ("acct", .string("a")), ("svce", .string("s")), ("gena", .data(Data([0x00, 0xFF]))), ("type", .number(128)),
        ("agrp", .string("g")), ("pdmn", .string("ak")), ("sync", .number(0)), ("tomb", .number(0)),
        ("musr", .data(Data())), ("cdat", .date(Date(timeIntervalSinceReferenceDate: 1.5))),
        ("mdat", .date(Date(timeIntervalSinceReferenceDate: 1.5))),
    ])

    private static let exampleSecret = Data("pw".utf8)

    /// Worked by hand from the encoding rules (§5.7). The digest dictionary holds the H attributes that have a
    /// value plus `v_Data` (not `musr`, which has no H flag). Each entry is SEQUENCE { UTF8String key, value }:
    ///
    ///     acct "a"      30 09 0C 04 61 63 63 74 0C 01 61
    ///     agrp "g"      30 09 0C 04 61 67 72 70 0C 01 67
    ///     svce "s"      30 09 0C 04 73 76 63 65 0C 01 73
    ///     sync 0        30 09 0C 04 73 79 6E 63 02 01 00
    ///     tomb 0        30 09 0C 04 74 6F 6D 62 02 01 00
    ///     gena 00 FF    30 0A 0C 04 67 65 6E 61 04 02 00 FF
    ///     pdmn "ak"     30 0A 0C 04 70 64 6D 6E 0C 02 61 6B
    ///     type 128      30 0A 0C 04 74 79 70 65 02 02 00 80        (INTEGER needs a 00 before 0x80)
    ///     v_Data "pw"   30 0C 0C 06 76 5F 44 61 74 61 04 02 70 77
    ///     cdat 1.5      30 19 0C 04 63 64 61 74 18 11 "20010101000001.5Z"
    ///     mdat 1.5      30 19 0C 04 6D 64 61 74 18 11 "20010101000001.5Z"
    ///
    /// (1.5 s after 2001-01-01 00:00:00 UTC: fields of second 01, fraction ".5", 17 ASCII bytes 32 30 30 31 30
    /// 31 30 31 30 30 30 30 30 31 2E 35 5A.) The pairs are sorted by their bytes, so by their length byte
    /// first (09 < 0A < 0C < 19), then by key, as listed. They take 5 × 11 + 3 × 12 + 14 + 2 × 27 = 159 = 0x9F
    /// bytes, so the SET's length has the long form: 31 81 9F, 162 bytes in all. SHA-1 of those 162 bytes
    /// (computed with an independent SHA-1 tool): ace806ae6ca928b81099c78d15a24bd3f1a4a3b4.
    private static let exampleDER =
        "31819f30090c04616363740c016130090c04616772700c016730090c04737663650c017330090c0473796e6302010030090c04746f"
        + "6d62020100300a0c0467656e61040200ff300a0c0470646d6e0c02616b300a0c047479706502020080300c0c06765f44617461"
        + "0402707730190c0463646174181132303031303130313030303030312e355a30190c046d64617418113230303130313031303030"
        + "3030312e355a"
    private static let exampleDigest = "ace806ae6ca928b81099c78d15a24bd3f1a4a3b4"

    private static func hex(_ data: Data) -> String { Hexadecimal.text(data) }

    @Test func workedExampleGivesTheHandDerivedBytesAndDigest() {
        let properties = ItemDigest.properties(of: Self.exampleAttributes, secret: Self.exampleSecret, in: .genericPassword)
        #expect(Self.hex(DERPropertyList.dictionary(properties).encoded) == Self.exampleDER)
        #expect(Self.hex(ItemDigest.sha1(of: Self.exampleAttributes, secret: Self.exampleSecret, in: .genericPassword)) == Self.exampleDigest)
    }

    /// Attributes without Apple's H flag, and an earlier digest, do not change the digest.
    @Test func attributesOutsideTheDigestDoNotChangeIt() {
        let digest = ItemDigest.sha1(of: Self.exampleAttributes, secret: Self.exampleSecret, in: .genericPassword)
        var other = Self.exampleAttributes
        other["musr"] = .data(Data(count: 16))
        other["accc"] = .accessControl(AccessControl(protection: .afterFirstUnlock))
        other["UUID"] = .string("7A3F0C52-0000-4000-8000-000000000000")
        other["persistref"] = .data(Data(count: 16))
        other["sha1"] = .data(Data(count: 20))
        #expect(ItemDigest.sha1(of: other, secret: Self.exampleSecret, in: .genericPassword) == digest)
        // The inet secret fields have no H flag either.
        let internet = AttributeSet([("srvr", .string("h")), ("agrp", .string("g"))])
        var withNotes = internet
        withNotes["binn"] = .data(Data("notes".utf8))
        #expect(
            ItemDigest.sha1(of: withNotes, secret: nil, in: .internetPassword)
                == ItemDigest.sha1(of: internet, secret: nil, in: .internetPassword))
    }

    /// Every H attribute counts, `agrp` and the dates included, and so does the secret: absent data differs
    /// from empty data.
    @Test func digestAttributesAndTheSecretChangeIt() {
        let digest = ItemDigest.sha1(of: Self.exampleAttributes, secret: Self.exampleSecret, in: .genericPassword)
        let changes: [(String, AttributeValue)] = [
            ("agrp", .string("h")), ("mdat", .date(Date(timeIntervalSinceReferenceDate: 1.501))), ("labl", .string("L")),
            ("acct", .data(Data("a".utf8))), ("sync", .number(1)), ("vwht", .string("")),
        ]
        for (code, value) in changes {
            var changed = Self.exampleAttributes
            changed[code] = value
            #expect(ItemDigest.sha1(of: changed, secret: Self.exampleSecret, in: .genericPassword) != digest, "\(code)")
        }
        let withoutData = ItemDigest.sha1(of: Self.exampleAttributes, secret: nil, in: .genericPassword)
        let withEmptyData = ItemDigest.sha1(of: Self.exampleAttributes, secret: Data(), in: .genericPassword)
        #expect(Set([digest, withoutData, withEmptyData]).count == 3)
    }

    /// An engine whose clock always says `CFAbsoluteTime` 1.5, over a keychain of its own.
    private static func engineAtAFixedTime() throws -> (KeychainEngine, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-digest-\(UUID().uuidString)")
        let folder = KeychainFolder(url: root.appendingPathComponent("keychain"))
        let keystore = try Keystore.open(folder: folder)
        let store = try ItemStore(databaseURL: folder.databaseURL, keyring: KeystoreKeyring(keystore: keystore))
        let engine = KeychainEngine(keystore: keystore, store: store, clock: { Date(timeIntervalSinceReferenceDate: 1.5) })
        return (engine, root)
    }

    private static let groups = CallerContext(accessGroups: .list(["g", "h"]))

    private static func addReturningSHA1(_ engine: KeychainEngine, group: String) throws -> Data? {
        let query: QueryDictionary = [
            "class": "genp", "acct": "a", "svce": "s", "gena": .data(Data([0x00, 0xFF])), "type": 128,
            "agrp": .string(group), "v_Data": .data(exampleSecret), "r_Attributes": true,
        ]
        let result = try engine.add(QueryParser.parseAdd(query), caller: groups)
        guard case .dictionary(let attributes)? = result, case .data(let digest)? = attributes["sha1"] else { return nil }
        return digest
    }

    /// The whole add path gives the worked example's digest; the same item in another access group gets
    /// another digest, since `agrp` has the H flag.
    @Test func addComputesTheDigestAppleWould() throws {
        let (engine, root) = try Self.engineAtAFixedTime()
        defer { try? FileManager.default.removeItem(at: root) }
        let inG = try Self.addReturningSHA1(engine, group: "g")
        #expect(inG.map(Self.hex) == Self.exampleDigest)
        let inH = try Self.addReturningSHA1(engine, group: "h")
        #expect(inH?.count == 20)
        #expect(inH != inG)
    }

    /// An item stored without a digest (before Coffer kept them) shows one computed from its secret when the
    /// secret is read too, none otherwise (Apple's `handle_result`), and stores one on its next update.
    @Test func itemWithoutAStoredDigestGetsOne() throws {
        let (engine, root) = try Self.engineAtAFixedTime()
        defer { try? FileManager.default.removeItem(at: root) }
        let added = try Self.addReturningSHA1(engine, group: "g")
        // Rewrite the row as an older Coffer stored it: the same attributes without `sha1`.
        try engine.store.write { writer in
            let row = try #require(try writer.select(ItemSelection(itemClass: .genericPassword)).first)
            var attributes = try AttributeSet(decoding: writer.openAttributes(row))
            attributes.removeValue(forCode: "sha1")
            _ = try writer.replace(
                rowID: row.rowID,
                with: NewItem(
                    itemClass: .genericPassword, protection: row.protection, attributes: attributes.encoded(),
                    secret: try writer.openSecret(row),
                    indexValues: ItemIndexing.indexValues(of: attributes, in: .genericPassword),
                    uniqueKey: ItemIndexing.uniqueKey(of: attributes, in: .genericPassword), persistentRef: row.persistentRef))
        }
        func found(_ extra: QueryDictionary) throws -> [String: KeychainValue] {
            var query: QueryDictionary = ["class": "genp", "acct": "a", "r_Attributes": true]
            for (key, value) in extra.entries { query.entries[key] = value }
            guard case .dictionary(let attributes)? = try engine.copyMatching(QueryParser.parseSearch(query), caller: Self.groups)
            else { return [:] }
            return attributes
        }
        #expect(try found([:])["sha1"] == nil)
        #expect(try found(["r_Data": true])["sha1"] == added.map(KeychainValue.data))
        // Not in the index yet, so a search by it does not find the item.
        let notFound = #expect(throws: EngineRefusal.self) { try found(["sha1": .data(added ?? Data())]) }
        #expect(notFound?.status == .itemNotFound)
        #expect(notFound?.rule == .c1)
        try engine.update(
            QueryParser.parseUpdate(query: ["class": "genp", "acct": "a"], attributesToUpdate: ["labl": "L"]), caller: Self.groups)
        let stored = try found([:])["sha1"]
        #expect(stored != nil && stored != added.map(KeychainValue.data))
        #expect(try found(["sha1": stored ?? .data(Data())])["labl"] == .string("L"))
    }
}
