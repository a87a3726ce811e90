import CofferTestSupport
import Coffer
import Foundation
import Testing

@Suite("Generic passwords through the Swift API", .timeLimit(.minutes(10)))
struct GenericPasswordTests {
    @Test(arguments: Transport.allCases) func addReturnsTheStoredItemWithItsMetadata(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let before = Date()
        let stored = try await temporary.keychain.add(
            GenericPassword(service: "com.example.api", account: "alice", value: bytes("hunter2")))
        #expect(stored.service == "com.example.api")
        #expect(stored.account == "alice")
        #expect(stored.value == bytes("hunter2"))
        #expect(stored.accessGroup == temporary.defaultGroup)  // the caller's default group (§8.3)
        #expect(stored.accessibility == .whenUnlocked)  // §1.3.1 default pdmn `ak`
        #expect(stored.synchronizable == false)
        let created = try #require(stored.creationDate)
        #expect(created >= before.addingTimeInterval(-1))
        #expect(stored.modificationDate == created)
        let reference = try #require(stored.persistentReference)
        #expect(reference.data.count == 20)  // §9: class code + 16-byte UUID
        #expect(reference.data.prefix(4) == bytes("genp"))
    }

    @Test(arguments: Transport.allCases) func everyAttributeRoundTrips(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let item = GenericPassword(
            service: "svc", account: "acct", value: bytes("secret"), label: "Label", comment: "Comment",
            kind: "API token", generic: Data([0, 1, 2]), creator: 0x6162_6364, type: 0x7778_797A,
            isInvisible: true, isNegative: false, accessibility: .afterFirstUnlock)
        let added = try await temporary.keychain.add(item)
        let found = try #require(try await temporary.keychain.item(matching: GenericPasswordQuery(service: "svc", account: "acct")))
        #expect(found == added)
        #expect(found.label == "Label")
        #expect(found.comment == "Comment")
        #expect(found.kind == "API token")
        #expect(found.generic == Data([0, 1, 2]))
        #expect(found.creator == 0x6162_6364)
        #expect(found.type == 0x7778_797A)
        #expect(found.isInvisible == true)
        #expect(found.isNegative == false)
        #expect(found.accessibility == .afterFirstUnlock)
        #expect(found.value == bytes("secret"))
    }

    @Test(arguments: Transport.allCases) func everyAttributeFilters(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(
            GenericPassword(service: "s", account: "one", value: bytes("1"), label: "L", kind: "k", creator: 7))
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "two", value: bytes("2")))
        var query = GenericPasswordQuery(service: "s")
        query.label = "L"
        #expect(try await temporary.keychain.items(matching: query).map(\.account) == ["one"])
        query = GenericPasswordQuery()
        query.creator = 7
        query.kind = "k"
        #expect(try await temporary.keychain.items(matching: query).map(\.account) == ["one"])
        query.kind = "K"  // §10.1: matching is case-sensitive
        #expect(try await temporary.keychain.items(matching: query).isEmpty)
    }

    @Test(arguments: Transport.allCases) func duplicateAddIsDuplicateItem(transport: Transport) async throws {  // rule A1
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("one")))
        let error = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("two"), label: "other"))
        }
        #expect(error?.status == .duplicateItem)
        #expect(error?.code == -25299)
        #expect(error?.operation == .add)
        // Another account is another item.
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "b", value: bytes("three")))
    }

    @Test(arguments: Transport.allCases) func itemMatchingNothingIsNil(transport: Transport) async throws {  // rule C1: -25300 becomes nil
        let temporary = TemporaryKeychain(transport: transport)
        #expect(try await temporary.keychain.item(matching: GenericPasswordQuery(service: "nothing")) == nil)
        #expect(try await temporary.keychain.items(matching: GenericPasswordQuery(service: "nothing")).isEmpty)
        #expect(try await temporary.keychain.attributes(matching: GenericPasswordQuery(service: "nothing")).isEmpty)
    }

    @Test(arguments: Transport.allCases) func updateChangesTheSecretAndAttributes(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let added = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("old")))
        try await temporary.keychain.update(
            matching: GenericPasswordQuery(service: "s", account: "a"),
            changes: GenericPasswordChanges(value: bytes("new"), label: "Renamed"))
        let found = try #require(try await temporary.keychain.item(matching: GenericPasswordQuery(service: "s", account: "a")))
        #expect(found.value == bytes("new"))
        #expect(found.label == "Renamed")
        #expect(found.creationDate == added.creationDate)  // §10.2: cdat kept
        #expect(try #require(found.modificationDate) > #require(added.modificationDate))  // mdat moves forward
    }

    @Test(arguments: Transport.allCases) func updateThatCollidesIsDuplicateItemAndChangesNothing(transport: Transport) async throws {  // rule U10
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("1")))
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "b", value: bytes("2")))
        let error = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.update(
                matching: GenericPasswordQuery(service: "s", account: "b"), changes: GenericPasswordChanges(account: "a"))
        }
        #expect(error?.status == .duplicateItem)
        #expect(try await temporary.keychain.item(matching: GenericPasswordQuery(service: "s", account: "b"))?.value == bytes("2"))
    }

    @Test(arguments: Transport.allCases) func updateAndDeleteOfNothingAreItemNotFound(transport: Transport) async throws {  // rules U9, D3
        let temporary = TemporaryKeychain(transport: transport)
        let update = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.update(
                matching: GenericPasswordQuery(service: "missing"), changes: GenericPasswordChanges(value: bytes("x")))
        }
        #expect(update?.status == .itemNotFound)
        #expect(update?.code == -25300)
        let delete = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.delete(matching: GenericPasswordQuery(service: "missing"))
        }
        #expect(delete?.status == .itemNotFound)
        #expect(delete?.operation == .delete)
    }

    @Test(arguments: Transport.allCases) func deleteRemovesEveryMatch(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("1")))
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "b", value: bytes("2")))
        _ = try await temporary.keychain.add(GenericPassword(service: "other", account: "a", value: bytes("3")))
        try await temporary.keychain.delete(matching: GenericPasswordQuery(service: "s"))
        #expect(try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s")).isEmpty)
        #expect(try await temporary.keychain.items(matching: GenericPasswordQuery()).map(\.service) == ["other"])
    }

    @Test(arguments: Transport.allCases) func attributesOnlyReadsCarryNoSecret(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("hunter2"), label: "L"))
        let items = try await temporary.keychain.attributes(matching: GenericPasswordQuery(service: "s"))
        #expect(items.count == 1)
        #expect(items.first?.value.isEmpty == true)
        #expect(items.first?.label == "L")
        #expect(items.first?.persistentReference != nil)
    }

    @Test(arguments: Transport.allCases) func itemsReturnsEveryMatchUpToTheLimit(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        for index in 0..<3 {
            _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a\(index)", value: bytes("v\(index)")))
        }
        let all = try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s"))
        #expect(Set(all.map(\.account)) == ["a0", "a1", "a2"])
        #expect(Set(all.map(\.value)) == [bytes("v0"), bytes("v1"), bytes("v2")])
        var limited = GenericPasswordQuery(service: "s")
        limited.limit = 2
        #expect(try await temporary.keychain.items(matching: limited).count == 2)
        limited.limit = 1  // a limit of 1 is Apple's single-result shape
        #expect(try await temporary.keychain.items(matching: limited).count == 1)
    }

    @Test(arguments: Transport.allCases) func limitMakesDeleteAParameterError(transport: Transport) async throws {  // rule D1: no kSecMatchLimit in delete
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("1")))
        var query = GenericPasswordQuery(service: "s")
        query.limit = 1
        let error = await #expect(throws: KeychainError.self) { try await temporary.keychain.delete(matching: query) }
        #expect(error?.status == .param)
    }

    @Test(arguments: Transport.allCases) func setAddsThenReplacesTheSecret(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        try await temporary.keychain.set(GenericPassword(service: "s", account: "a", value: bytes("first")))
        try await temporary.keychain.set(GenericPassword(service: "s", account: "a", value: bytes("second"), label: "L"))
        let items = try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s", account: "a"))
        #expect(items.count == 1)
        #expect(items.first?.value == bytes("second"))
        #expect(items.first?.label == "L")
    }

    @Test(arguments: Transport.allCases) func queriesFindSynchronizableItemsUnlessAskedNotTo(transport: Transport) async throws {  // §2.5
        let temporary = TemporaryKeychain(transport: transport)
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("local")))
        _ = try await temporary.keychain.add(
            GenericPassword(service: "s", account: "a", value: bytes("synced"), synchronizable: true))
        #expect(try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s")).count == 2)
        let synced = try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s", synchronizable: .yes))
        #expect(synced.map(\.value) == [bytes("synced")])
        #expect(synced.first?.synchronizable == true)
        let local = try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s", synchronizable: .no))
        #expect(local.map(\.value) == [bytes("local")])
    }

    @Test(arguments: Transport.allCases) func accessibilityTogetherWithAccessControlIsAParameterError(transport: Transport) async throws {  // rule G9
        let temporary = TemporaryKeychain(transport: transport)
        let control = try AccessControl.create(protection: .whenUnlocked, flags: [])
        let error = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.add(
                GenericPassword(service: "s", account: "a", value: bytes("x"), accessibility: .always, accessControl: control))
        }
        #expect(error?.status == .param)
    }

    @Test(arguments: Transport.allCases) func accessControlRoundTrips(transport: Transport) async throws {
        let temporary = TemporaryKeychain(transport: transport)
        let control = try AccessControl.create(protection: .afterFirstUnlockThisDeviceOnly, flags: .devicePasscode)
        let added = try await temporary.keychain.add(
            GenericPassword(service: "s", account: "a", value: bytes("x"), accessControl: control))
        #expect(added.accessControl == control)
        #expect(added.accessibility == nil)
        #expect(added.effectiveAccessibility == .afterFirstUnlockThisDeviceOnly)
        // Reading it, even its attributes, needs the person; this keychain has no passcode to ask for.
        var failure: KeychainError?
        do {
            _ = try await temporary.keychain.attributes(matching: GenericPasswordQuery(service: "s"))
        } catch {
            failure = error
        }
        #expect(failure?.status == .authFailed)
        var skipping = GenericPasswordQuery(service: "s")
        skipping.authenticationUI = .skip
        #expect(try await temporary.keychain.attributes(matching: skipping).isEmpty)
    }
}
