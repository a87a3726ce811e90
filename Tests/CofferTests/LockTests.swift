import Coffer
import Foundation
import Testing

@Suite("Lock states through the Swift API", .timeLimit(.minutes(10)))
struct LockTests {
    static let passcode = "1234"

    /// A keychain folder holding a `whenUnlocked` item (A) and an `afterFirstUnlock` item (C), then given
    /// a passcode: reopened, it starts before first unlock.
    static func folderWithPasscode() async throws -> TemporaryKeychain {
        let temporary = TemporaryKeychain()
        _ = try await temporary.keychain.add(GenericPassword(service: "s", account: "classA", value: bytes("A secret")))
        _ = try await temporary.keychain.add(
            GenericPassword(service: "s", account: "classC", value: bytes("C secret"), accessibility: .afterFirstUnlock))
        try temporary.setPasscode(passcode)
        return temporary
    }

    @Test func beforeFirstUnlockNothingProtectedCanBeRead() async throws {  // §4.2, rule G16
        let temporary = try await Self.folderWithPasscode()
        let keychain = temporary.reopened()
        let status = try await keychain.status()
        #expect(status.passcodeSet)
        #expect(status.lockState == .beforeFirstUnlock)
        for account in ["classA", "classC"] {
            let error = await #expect(throws: KeychainError.self) {
                try await keychain.item(matching: GenericPasswordQuery(service: "s", account: account))
            }
            #expect(error?.status == .interactionNotAllowed)
            #expect(error?.code == -25308)
        }
    }

    @Test func lockedKeychainRefusesClassAButServesClassC() async throws {
        let temporary = try await Self.folderWithPasscode()
        let keychain = temporary.reopened()
        try await keychain.unlock(passcode: Self.passcode)
        #expect(try await keychain.status().lockState == .unlocked)
        #expect(try await keychain.item(matching: GenericPasswordQuery(service: "s", account: "classA"))?.value == bytes("A secret"))
        try await keychain.lock()
        #expect(try await keychain.status().lockState == .locked)

        let read = await #expect(throws: KeychainError.self) {
            try await keychain.item(matching: GenericPasswordQuery(service: "s", account: "classA"))
        }
        #expect(read?.status == .interactionNotAllowed)
        let add = await #expect(throws: KeychainError.self) {  // rule A2: encryption fails first
            try await keychain.add(GenericPassword(service: "s", account: "new", value: bytes("x")))
        }
        #expect(add?.status == .interactionNotAllowed)
        #expect(add?.code == -25308)
        // Class C stays usable after the first unlock: read, add and update.
        #expect(try await keychain.item(matching: GenericPasswordQuery(service: "s", account: "classC"))?.value == bytes("C secret"))
        _ = try await keychain.add(
            GenericPassword(service: "s", account: "classC2", value: bytes("x"), accessibility: .afterFirstUnlock))
        try await keychain.update(
            matching: GenericPasswordQuery(service: "s", account: "classC"), changes: GenericPasswordChanges(value: bytes("C2")))
        // Delete works in every lock state.
        try await keychain.delete(matching: GenericPasswordQuery(service: "s", account: "classA"))
        try await keychain.unlock(passcode: Self.passcode)
        #expect(try await keychain.item(matching: GenericPasswordQuery(service: "s", account: "classA")) == nil)
        #expect(try await keychain.item(matching: GenericPasswordQuery(service: "s", account: "classC"))?.value == bytes("C2"))
    }

    @Test func wrongPasscodeIsAuthFailedWithoutThePasscode() async throws {
        let temporary = try await Self.folderWithPasscode()
        let keychain = temporary.reopened()
        let error = try #require(await #expect(throws: KeychainError.self) { try await keychain.unlock(passcode: "9876") })
        #expect(error.status == .authFailed)
        #expect(error.code == -25293)
        #expect(error.operation == .unlock)
        #expect(!error.description.contains("9876"))
        #expect(try await keychain.status().failedAttempts == 1)
    }

    @Test func keychainWithoutPasscodeIsAlwaysUnlocked() async throws {
        let temporary = TemporaryKeychain()
        try await temporary.keychain.lock()
        let status = try await temporary.keychain.status()
        #expect(!status.passcodeSet)
        #expect(status.lockState == .unlocked)
    }
}
