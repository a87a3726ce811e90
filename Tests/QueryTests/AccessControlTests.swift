import KeychainModel
import Testing
@testable import Query

@Suite("AccessControl (§6.1)", .timeLimit(.minutes(10)))
struct AccessControlTests {
    @Test func flagsHaveAppleBitValues() {
        #expect(AccessControlFlags.userPresence.rawValue == 0x1)
        #expect(AccessControlFlags.biometryAny.rawValue == 0x2)
        #expect(AccessControlFlags.biometryCurrentSet.rawValue == 0x8)
        #expect(AccessControlFlags.devicePasscode.rawValue == 0x10)
        #expect(AccessControlFlags.companion.rawValue == 0x20)
        #expect(AccessControlFlags.or.rawValue == 0x4000)
        #expect(AccessControlFlags.and.rawValue == 0x8000)
        #expect(AccessControlFlags.privateKeyUsage.rawValue == 0x4000_0000)
        #expect(AccessControlFlags.applicationPassword.rawValue == 0x8000_0000)
    }

    @Test(arguments: [
        AccessControlFlags([.or, .and, .biometryAny, .devicePasscode]),
        [.biometryAny, .biometryCurrentSet],
        [.userPresence, .biometryAny],
        [.userPresence, .devicePasscode],
        [.userPresence, .or],
    ])
    func invalidCombinationsAreRejected(flags: AccessControlFlags) {
        #expect(throws: KeychainStatus.param) { try statusOf(AccessControl.create(protection: .whenUnlocked, flags: flags)) }
    }

    @Test(arguments: [
        AccessControlFlags(), [.userPresence], [.userPresence, .applicationPassword],
        [.userPresence, .privateKeyUsage], [.biometryAny, .or, .devicePasscode], [.biometryCurrentSet, .and, .companion],
    ])
    func validCombinationsAreAccepted(flags: AccessControlFlags) throws {
        let control = try AccessControl.create(protection: .afterFirstUnlock, flags: flags)
        #expect(control.flags == flags)
        #expect(control.protection == .afterFirstUnlock)
    }

    @Test func invalidProtectionStringIsRejected() {
        #expect(throws: KeychainStatus.param) { try statusOf(AccessControl.create(protection: "f", flags: [])) }
        #expect(throws: KeychainStatus.param) { try statusOf(AccessControl.create(protection: "nope", flags: [])) }
        #expect((try? AccessControl.create(protection: "akpu", flags: .devicePasscode))?.protection == .whenPasscodeSetThisDeviceOnly)
    }

    @Test func constraintsAreTheAuthenticationFlags() {
        #expect(AccessControl(protection: .whenUnlocked, flags: .devicePasscode).hasConstraints)
        #expect(AccessControl(protection: .whenUnlocked, flags: .companion).hasConstraints)
        #expect(!AccessControl(protection: .whenUnlocked, flags: []).hasConstraints)
        #expect(!AccessControl(protection: .whenUnlocked, flags: .privateKeyUsage).hasConstraints)
        #expect(!AccessControl(protection: .whenUnlocked, flags: .applicationPassword).hasConstraints)
    }
}
