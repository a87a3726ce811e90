import Foundation
import KeychainModel
import KeychainOperations
import Query
import Testing

/// Biometric access controls with a scripted reader: `biometryAny` and `userPresence` survive enrollment
/// changes; `biometryCurrentSet` binds the set enrolled when the item was stored.
@Suite("Access control: biometry", .timeLimit(.minutes(10)))
struct BiometryAccessControlTests {
    private typealias K = ProtectedKeychain
    private static let setA = Array(repeating: UInt8(0xA), count: 32)
    private static let setB = Array(repeating: UInt8(0xB), count: 32)

    @Test func aMatchingFingerOpensABiometryAnyItemEvenAfterEnrollmentChanges() throws {
        let keychain = try ProtectedKeychain(biometry: FakeBiometry(.available(domainState: Self.setA)))
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.biometryAny)])
        keychain.biometry.willRead(.matched)
        #expect(keychain.find("a").text == "secret")
        keychain.biometry.enroll(.available(domainState: Self.setB))
        keychain.biometry.willRead(.matched)
        #expect(keychain.find("a").text == "secret")
        #expect(keychain.prompter.reasonsAsked.isEmpty)
    }

    @Test func aFingerThatDoesNotMatchIsAuthFailed() throws {
        let keychain = try ProtectedKeychain(biometry: FakeBiometry(.available(domainState: Self.setA)))
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.biometryAny)])
        keychain.biometry.willRead(.noMatch)
        #expect(keychain.find("a").itemStatus == -25293)
    }

    @Test func userPresenceFallsBackToThePasscodeWhenNoFingerMatches() throws {
        let keychain = try ProtectedKeychain(biometry: FakeBiometry(.available(domainState: Self.setA)))
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.userPresence)])
        keychain.biometry.willRead(.noMatch)
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.find("a").text == "secret")
        #expect(keychain.biometry.touchCount == 1)
        #expect(keychain.prompter.reasonsAsked.count == 1)
    }

    @Test func currentSetItemsBecomeUnreadableAfterAnEnrollmentChange() throws {
        let keychain = try ProtectedKeychain(biometry: FakeBiometry(.available(domainState: Self.setA)))
        defer { keychain.remove() }
        #expect(keychain.add("a", [.string(QueryKey.accessControl): K.control(.biometryCurrentSet)]).itemStatus == 0)
        keychain.biometry.willRead(.matched)
        #expect(keychain.find("a").text == "secret")
        keychain.biometry.enroll(.available(domainState: Self.setB))
        keychain.biometry.willRead(.matched)
        let answer = keychain.find("a")
        #expect(answer.itemStatus == -25293)
        guard case .failure(_, let reason) = answer else { Issue.record("expected a reason"); return }
        #expect(reason.contains("enrolled fingers changed"))
        // The reader was not even asked: no finger can open it any more.
        #expect(keychain.biometry.touchCount == 1)
        // Enrolling the old set back makes it readable again.
        keychain.biometry.enroll(.available(domainState: Self.setA))
        keychain.biometry.willRead(.matched)
        #expect(keychain.find("a").text == "secret")
    }

    @Test func withoutBiometryBiometricItemsCannotBeStoredOrOpened() throws {
        let keychain = try ProtectedKeychain(biometry: FakeBiometry(.notAvailable(reason: "no reader")))
        defer { keychain.remove() }
        #expect(keychain.add("current", [.string(QueryKey.accessControl): K.control(.biometryCurrentSet)]).itemStatus == -25293)
        #expect(keychain.add("any", [.string(QueryKey.accessControl): K.control(.biometryAny)]).itemStatus == 0)
        #expect(keychain.find("any").itemStatus == -25293)
    }

    @Test func orTakesWhicheverFactorThisMachineHas() throws {
        let keychain = try ProtectedKeychain(biometry: FakeBiometry(.notAvailable(reason: "no reader")))
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control([.biometryAny, .or, .devicePasscode])])
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.find("a").text == "secret")
    }

    @Test func andNeedsEveryFactor() throws {
        let keychain = try ProtectedKeychain(biometry: FakeBiometry(.available(domainState: Self.setA)))
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control([.biometryAny, .and, .devicePasscode])])
        keychain.biometry.willRead(.matched)
        keychain.prompter.willAnswer(.passcode("1234"))
        #expect(keychain.find("a").text == "secret")
        #expect(keychain.biometry.touchCount == 1)
        #expect(keychain.prompter.reasonsAsked.count == 1)
        // Without a reader, And cannot be met.
        keychain.biometry.enroll(.notAvailable(reason: "unplugged"))
        #expect(keychain.find("a").itemStatus == -25293)
    }

    @Test func companionIsNeverAvailable() throws {
        let keychain = try ProtectedKeychain()
        defer { keychain.remove() }
        keychain.add("a", [.string(QueryKey.accessControl): K.control(.companion)])
        #expect(keychain.find("a").itemStatus == -25293)
    }
}
