import Coffer
import Foundation
import Testing

@Suite("Access groups through the Swift API", .timeLimit(.minutes(10)))
struct AccessGroupTests {
    @Test func addsGoToTheFirstGroup() async throws {  // §8.3
        let temporary = TemporaryKeychain(accessGroups: ["TEAM.first", "TEAM.second"])
        let added = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("x")))
        #expect(added.accessGroup == "TEAM.first")
        let found = try await temporary.keychain.item(matching: GenericPasswordQuery(service: "s"))
        #expect(found?.accessGroup == "TEAM.first")
    }

    @Test func aGroupOutsideTheListIsMissingEntitlement() async throws {  // rule G13
        let temporary = TemporaryKeychain(accessGroups: ["TEAM.first"])
        let add = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("x"), accessGroup: "TEAM.other"))
        }
        #expect(add?.status == .missingEntitlement)
        #expect(add?.code == -34018)
        let read = await #expect(throws: KeychainError.self) {
            try await temporary.keychain.item(matching: GenericPasswordQuery(service: "s", accessGroup: "TEAM.other"))
        }
        #expect(read?.status == .missingEntitlement)
    }

    @Test func groupsSeparateItemsWithTheSameKey() async throws {  // §1.4: agrp is in the primary key
        let temporary = TemporaryKeychain(accessGroups: ["TEAM.first", "TEAM.second"])
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "a", value: bytes("1")))
        _ = try await temporary.keychain.add(
            GenericPassword(service: "s", account: "a", value: bytes("2"), accessGroup: "TEAM.second"))
        #expect(try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s")).count == 2)
        let second = try await temporary.keychain.items(matching: GenericPasswordQuery(service: "s", accessGroup: "TEAM.second"))
        #expect(second.map(\.value) == [bytes("2")])
        // Another caller of the same keychain that has only the second group sees only that item.
        let other = temporary.reopened(accessGroups: ["TEAM.second"])
        #expect(try await other.items(matching: GenericPasswordQuery(service: "s")).map(\.value) == [bytes("2")])
    }
}
