import Foundation
import ItemStore
import KeychainModel
import Keystore
import Query
import Testing

@testable import Engine

/// The engine says why it refuses, with the rule, and an item that needs the person carries what the person
/// must prove, so the keychain service asks for it without reading the store again.
@Suite struct RefusalTests {
    private static let caller = CallerContext(accessGroups: .list(["g"]))
    private static let presence = AccessControl(protection: .whenUnlocked, flags: .userPresence)

    private static func engine() throws -> (KeychainEngine, URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-refusals-\(UUID().uuidString)")
        let folder = KeychainFolder(url: root.appendingPathComponent("keychain"))
        let keystore = try Keystore.open(folder: folder)
        let store = try ItemStore(databaseURL: folder.databaseURL, keyring: KeystoreKeyring(keystore: keystore))
        return (KeychainEngine(keystore: keystore, store: store), root)
    }

    private static func find(ui: String) throws -> SearchRequest {
        try QueryParser.parseSearch(["class": "genp", "acct": "a", "r_Data": true, "u_AuthUI": .string(ui)])
    }

    @Test func aProtectedItemsRefusalCarriesItsRequirement() throws {
        let (engine, root) = try Self.engine()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try engine.add(
            QueryParser.parseAdd(["class": "genp", "acct": "a", "accc": .accessControl(Self.presence), "v_Data": .data(Data("s".utf8))]),
            caller: Self.caller)

        let needed = #expect(throws: EngineRefusal.self) { try engine.copyMatching(Self.find(ui: "u_AuthUIA"), caller: Self.caller) }
        #expect(needed?.status == .authNeeded)
        #expect(needed?.requirement == AuthenticationRequirement(accessControl: Self.presence))

        let mayNotPrompt = #expect(throws: EngineRefusal.self) { try engine.copyMatching(Self.find(ui: "u_AuthUIF"), caller: Self.caller) }
        #expect(mayNotPrompt?.status == .interactionNotAllowed)
        #expect(mayNotPrompt?.rule == .g19)
        #expect(mayNotPrompt?.requirement == nil)
        #expect(
            mayNotPrompt?.message == "G19: the item's access control requires authentication (kSecAccessControlUserPresence), and the call may not prompt")

        // Skip leaves it out, and then nothing matches (C1).
        let skipped = #expect(throws: EngineRefusal.self) { try engine.copyMatching(Self.find(ui: "u_AuthUIS"), caller: Self.caller) }
        #expect(skipped?.status == .itemNotFound)
        #expect(skipped?.rule == .c1)
    }

    @Test func groupsAndMatchesAreRefusedWithTheirRules() throws {
        let (engine, root) = try Self.engine()
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = #expect(throws: EngineRefusal.self) {
            try engine.add(QueryParser.parseAdd(["class": "genp", "acct": "a", "agrp": "other", "v_Data": .data(Data())]), caller: Self.caller)
        }
        #expect(outside?.status == .missingEntitlement)
        #expect(outside?.rule == .g13)
        let none = #expect(throws: EngineRefusal.self) {
            try engine.add(QueryParser.parseAdd(["class": "genp", "acct": "a"]), caller: CallerContext(accessGroups: .list([])))
        }
        #expect(none?.rule == .g1)

        _ = try engine.add(QueryParser.parseAdd(["class": "genp", "acct": "a", "v_Data": .data(Data())]), caller: Self.caller)
        let duplicate = #expect(throws: EngineRefusal.self) {
            try engine.add(QueryParser.parseAdd(["class": "genp", "acct": "a", "v_Data": .data(Data())]), caller: Self.caller)
        }
        #expect(duplicate?.status == .duplicateItem)
        #expect(duplicate?.rule == .a1)
        let unmatchedUpdate = #expect(throws: EngineRefusal.self) {
            try engine.update(QueryParser.parseUpdate(query: ["class": "genp", "acct": "b"], attributesToUpdate: ["labl": "L"]), caller: Self.caller)
        }
        #expect(unmatchedUpdate?.rule == .u9)
        let unmatchedDelete = #expect(throws: EngineRefusal.self) {
            try engine.delete(QueryParser.parseDelete(["class": "genp", "acct": "b"]), caller: Self.caller)
        }
        #expect(unmatchedDelete?.rule == .d3)
        #expect(unmatchedDelete?.failure == KeychainFailure(.itemNotFound, reason: "D3: no item matches the query among the calling program's access groups"))
    }
}
