import BackupFormat
import CofferTestSupport
@testable import Engine
import Foundation
import KeychainModel
import Query
import Testing

/// Which items follow their owner to the account's other devices: `sync` set and a protection class that migrates,
/// read as stored; locked ones counted and left for later, never failed.
@Suite("Sync: the items that follow their owner", .timeLimit(.minutes(5)))
struct SynchronizableItemsTests {
    /// The accounts of `items`, from their stored attributes.
    private func accounts(_ items: [SynchronizableItem]) throws -> Set<String> {
        Set(
            try items.map { item in
                guard case .string(let account)? = try AttributeSet(decoding: item.record.attributes)[QueryKey.account] else { return "" }
                return account
            })
    }

    @Test func onlySynchronizableItemsThatMayLeaveTheDeviceAreRead() throws {
        let keychain = TestKeychain()
        _ = try keychain.add(genp("svc", "syncs", ["sync": true, "v_Data": secretData("one")]))
        _ = try keychain.add(genp("svc", "stays", ["v_Data": secretData("two")]))
        _ = try keychain.add(genp("svc", "this-device-only", ["sync": true, "pdmn": "aku", "v_Data": secretData("three")]))
        _ = try keychain.add(genp("svc", "always", ["sync": true, "pdmn": "dk"]))
        _ = try keychain.add(["class": "inet", "srvr": "example.com", "acct": "web", "sync": true, "pdmn": "ck", "v_Data": secretData("four")])
        let embedded = try #require(keychain.embedded)
        let found = try embedded.service.engine().synchronizableItems(caller: embedded.caller)
        #expect(try accounts(found.items) == ["syncs", "always", "web"])
        #expect(found.locked == 0)
        let syncs = try #require(try found.items.first { try accounts([$0]) == ["syncs"] })
        #expect(syncs.record.secret == Data("one".utf8))
        #expect(syncs.record.itemClass == .genericPassword && syncs.record.protection == .whenUnlocked)
        #expect(syncs.persistentRef.count == 16)
    }

    @Test func lockedItemsAreCountedAndLeftForLater() throws {
        let keychain = TestKeychain()
        _ = try keychain.add(genp("svc", "when-unlocked", ["sync": true, "v_Data": secretData("a")]))
        _ = try keychain.add(genp("svc", "after-first-unlock", ["sync": true, "pdmn": "ck", "v_Data": secretData("c")]))
        _ = try keychain.add(genp("svc", "always", ["sync": true, "pdmn": "dk", "v_Data": secretData("d")]))
        // Before the first unlock only the Always class opens.
        let locked = try keychain.withPasscode()
        let embedded = try #require(locked.embedded)
        let found = try embedded.service.engine().synchronizableItems(caller: embedded.caller)
        #expect(try accounts(found.items) == ["always"])
        #expect(found.locked == 2)
    }
}

/// The rule itself, attribute by attribute (what adds through the API cannot all reach: token keys, system-bound items).
@Suite("Sync: eligibility")
struct SyncEligibilityTests {
    private func syncs(_ entries: [(String, AttributeValue)], _ itemClass: ItemClass = .genericPassword) -> Bool {
        SyncEligibility.syncs(AttributeSet([("sync", .number(1)), ("pdmn", .string("ak"))] + entries), in: itemClass)
    }

    @Test func theFlagAndAMigratingClassAreNeeded() {
        #expect(syncs([]))
        #expect(!SyncEligibility.syncs(AttributeSet([("sync", .number(0)), ("pdmn", .string("ak"))]), in: .genericPassword))
        #expect(!SyncEligibility.syncs(AttributeSet([("pdmn", .string("ak"))]), in: .genericPassword))
        for code in ["aku", "cku", "dku", "akpu"] {
            #expect(!SyncEligibility.syncs(AttributeSet([("sync", .number(1)), ("pdmn", .string(code))]), in: .genericPassword), "\(code)")
            #expect(!SyncEligibility.allows(ProtectionClass(rawValue: code)!))
        }
        for code in ["ak", "ck", "dk"] { #expect(SyncEligibility.allows(ProtectionClass(rawValue: code)!)) }
    }

    @Test func nothingBoundToThisDeviceSyncs() {
        #expect(!syncs([("tkid", .string("com.apple.setoken"))], .key))
        #expect(!syncs([("sysb", .number(1))]))
        // A key its owner may not export still follows the owner.
        #expect(syncs([("extr", .number(0))], .key))
    }
}

/// What a sync record carries: one item, whole, or a deleted item's tombstone with its primary key and dates only.
@Suite("Sync: record content and tombstones")
struct SyncRecordContentTests {
    private func synchronizable(_ keychain: TestKeychain) throws -> SynchronizableItem {
        let embedded = try #require(keychain.embedded)
        return try #require(try embedded.service.engine().synchronizableItems(caller: embedded.caller).items.first)
    }

    @Test func anItemTravelsWholeAndItsTombstoneKeepsThePrimaryKeyOnly() throws {
        let keychain = TestKeychain()
        _ = try keychain.add(genp("mail", "me", ["sync": true, "labl": "Mail", "icmt": "a comment", "v_Data": secretData("hunter2")]))
        let item = try synchronizable(keychain)
        let content = SyncRecordContent.content(of: item.record)
        #expect(try SyncRecordContent.record(from: content) == item.record)

        let tombstone = try SyncRecordContent.tombstone(of: item.record)
        #expect(tombstone.secret == nil && tombstone.itemClass == .genericPassword && tombstone.protection == item.record.protection)
        let kept = try AttributeSet(decoding: tombstone.attributes)
        #expect(kept[QueryKey.account] == .string("me") && kept["svce"] == .string("mail") && kept[QueryKey.synchronizable] == .number(1))
        #expect(kept.contains("agrp") && kept.contains("cdat") && kept.contains("mdat"))
        #expect(!kept.contains("labl") && !kept.contains("icmt"))
        let tombstoneContent = SyncRecordContent.content(of: tombstone)
        #expect(tombstoneContent.withUnsafeBytes { bytes in Data(bytes).range(of: Data("hunter2".utf8)) == nil })
    }

    @Test func contentThatIsNotExactlyOneItemIsRefused() throws {
        let keychain = TestKeychain()
        _ = try keychain.add(genp("svc", "one", ["sync": true]))
        let record = try synchronizable(keychain).record
        #expect(throws: BackupFormatError.self) { try SyncRecordContent.record(from: BackupRecordStream.encode([record, record])) }
        #expect(throws: BackupFormatError.self) { try SyncRecordContent.record(from: BackupRecordStream.encode([])) }
    }
}
