import Testing
@testable import Query

/// A refusal that says what authentication was needed names it by Apple's access-control flags.
@Suite struct AuthenticationRequirementNamesTests {
    @Test func factorsAreNamedByTheirFlagsJoinedAsTheyCombine() {
        #expect(AuthenticationRequirement(factors: [.presence]).appleNames == "kSecAccessControlUserPresence")
        #expect(
            AuthenticationRequirement(factors: [.biometryAny, .passcode]).appleNames
                == "kSecAccessControlDevicePasscode or kSecAccessControlBiometryAny")
        #expect(
            AuthenticationRequirement(factors: [.biometryCurrentSet, .passcode], needsAll: true).appleNames
                == "kSecAccessControlDevicePasscode and kSecAccessControlBiometryCurrentSet")
        for factor in AuthenticationRequirement.Factor.allCases { #expect(factor.appleName.hasPrefix("kSecAccessControl")) }
    }
}
