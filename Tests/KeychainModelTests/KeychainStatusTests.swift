import KeychainModel
import Testing

@Suite("Status codes", .timeLimit(.minutes(10)))
struct KeychainStatusTests {
    @Test func valuesAreApples() {
        let expected: [(KeychainStatus, Int32, String)] = [
            (.success, 0, "errSecSuccess"), (.unimplemented, -4, "errSecUnimplemented"), (.param, -50, "errSecParam"),
            (.notAvailable, -25291, "errSecNotAvailable"), (.authFailed, -25293, "errSecAuthFailed"),
            (.duplicateItem, -25299, "errSecDuplicateItem"), (.itemNotFound, -25300, "errSecItemNotFound"),
            (.noSuchAttribute, -25303, "errSecNoSuchAttr"), (.noSuchClass, -25306, "errSecNoSuchClass"),
            (.interactionNotAllowed, -25308, "errSecInteractionNotAllowed"), (.decode, -26275, "errSecDecode"),
            (.missingEntitlement, -34018, "errSecMissingEntitlement"), (.io, -36, "errSecIO"),
            (.diskFull, -34, "errSecDiskFull"),
        ]
        for (status, code, name) in expected {
            #expect(status.code == code)
            #expect(status.name == name)
        }
    }

    @Test func unknownCodeKeepsItsNumber() {
        #expect(KeychainStatus(code: 12345).name == "OSStatus 12345")
    }
}

@Suite("Protection classes", .timeLimit(.minutes(10)))
struct ProtectionClassTests {
    @Test func keyclassNumbersRoundTrip() {
        #expect(ProtectionClass.whenUnlocked.keyclassNumber == 6)
        #expect(ProtectionClass.whenPasscodeSetThisDeviceOnly.keyclassNumber == 12)
        for protection in ProtectionClass.allCases {
            #expect(ProtectionClass(keyclassNumber: protection.keyclassNumber) == protection)
        }
        #expect(ProtectionClass(keyclassNumber: 5) == nil)
    }
}
