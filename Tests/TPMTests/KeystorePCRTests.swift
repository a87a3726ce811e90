import BackupFormat
import Crypto
import Foundation
import KeychainModel
import TPMFixture
import Testing
import TrustedPlatformModule

@testable import Keystore

/// A device key sealed to PCRs as well as to the chip (`coffer keystore bind-tpm --pcrs`): the keychain opens while
/// they hold their values, needs the recovery key once they change, and is sealed again to their new values by it.
@Suite struct KeystorePCRTests {
    @Test func aKeychainSealedToPCRsNeedsItsRecoveryKeyOnceTheyChange() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped: Data
        let recoveryKey: RecoveryKey
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            try keystore.setPasscode(secret("the passcode"), kdf: .insecureForTesting)
            wrapped = try keystore.wrapItemKey(itemKey, protection: .whenUnlocked)
            recoveryKey = try keystore.takeRecoveryKey(passcode: "the passcode")
            #expect(throws: KeystoreError.ownerProofRequired(reason: "the keychain's passcode is needed to move or show its keys")) {
                try keystore.bindToTPM(passcode: nil, pcrs: try PCRSelection([16]))
            }
            #expect(throws: KeystoreError.wrongPasscode(failedAttempts: 1, retryAfter: .zero)) {
                try keystore.bindToTPM(passcode: secret("wrong"), pcrs: try PCRSelection([16]))
            }
            // Sealed again on the same TPM: no new recovery key, the old one still opens it.
            #expect(try keystore.bindToTPM(passcode: secret("the passcode"), pcrs: try PCRSelection([16])) == nil)
            guard case .tpm(let binding) = keystore.deviceKeyProtection else {
                Issue.record("not bound: \(keystore.deviceKeyProtection)")
                return
            }
            #expect(binding.pcrs == [16])
        }
        #expect(try TPMDeviceKeyFile.load(from: folder.tpmDeviceKeyURL)?.pcrs == PCRSelection([16]))
        do {
            let reopened = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            // The policy is the open's (load, policy session, PolicyPCR, unseal, two flushes): an unlock still sends
            // at most two commands.
            let opened = try #require(reopened.tpmCommandsSent)
            try reopened.unlock(passcode: secret("the passcode"))
            #expect(try #require(reopened.tpmCommandsSent) - opened <= 2)
            #expect(try reopened.unwrapItemKey(wrapped, protection: .whenUnlocked) == itemKey)
        }

        try software.extendPCR(16)
        let refusal = #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder, tpm: .tcti(software.tcti)) }
        guard case .tpmUnavailable(let reason)? = refusal else {
            Issue.record("not refused for its PCRs: \(String(describing: refusal))")
            return
        }
        #expect(reason.contains("sealed to PCRs sha256:16") && reason.contains("coffer keystore recover"))
        #expect(refusal?.status == .notAvailable)

        do {
            let recovered = try Keystore.recover(
                folder: folder, recoveryKey: recoveryKey, passcode: secret("the passcode"), tpm: .tcti(software.tcti))
            #expect(try recovered.unwrapItemKey(wrapped, protection: .whenUnlocked) == itemKey)
        }
        // Sealed to the same PCRs at their new values: it opens with the passcode alone again.
        #expect(try TPMDeviceKeyFile.load(from: folder.tpmDeviceKeyURL)?.pcrs == PCRSelection([16]))
        do {
            let reopened = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            try reopened.unlock(passcode: secret("the passcode"))
            #expect(try reopened.unwrapItemKey(wrapped, protection: .whenUnlocked) == itemKey)
            // Back to the chip alone: later changes of PCR 16 no longer matter.
            #expect(try reopened.bindToTPM(passcode: secret("the passcode"), pcrs: PCRSelection.none) == nil)
        }
        try software.extendPCR(16)
        let unbound = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
        try unbound.unlock(passcode: secret("the passcode"))
        guard case .tpm(let binding) = unbound.deviceKeyProtection else {
            Issue.record("not bound: \(unbound.deviceKeyProtection)")
            return
        }
        #expect(binding.pcrs.isEmpty)
        #expect(try software.lockoutCounter() == 0)
    }

    @Test func aFileKeychainBindsToTheTPMAndPCRsAtOnce() throws {
        let software = try SoftwareTPM()
        defer { software.stop() }
        let folder = temporaryFolder()
        _ = try Keystore.open(folder: folder, tpm: .none)
        do {
            let keystore = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
            #expect(keystore.deviceKeyProtection == .file(whyNoTPM: nil))
            #expect(try keystore.bindToTPM(passcode: nil, pcrs: try PCRSelection([7, 23])) != nil)
        }
        let sealed = try #require(try TPMDeviceKeyFile.load(from: folder.tpmDeviceKeyURL))
        #expect(sealed.pcrs.list == [7, 23])
        // Only the device key is bound to them: the recovery key and the passcode's key are not.
        let reopened = try Keystore.open(folder: folder, tpm: .tcti(software.tcti))
        #expect(reopened.lockState == .unlocked)
        #expect(FileManager.default.fileExists(atPath: folder.tpmDeviceKeyURL.path))
        #expect(!FileManager.default.fileExists(atPath: folder.deviceKeyURL.path))
    }

    @Test func theFileKeepsItsPCRsAndRefusesDamageToThem() throws {
        let srk = StorageRootKey(x: Data(repeating: 1, count: 32), y: Data(repeating: 2, count: 32))
        let file = TPMDeviceKeyFile(
            storageRootKey: srk, sealedDeviceKey: Data([1, 2, 3]), passcodeHMACKey: Data([4]), escrow: Data([5]),
            pendingRecoveryKey: Data(), route: .systemService, pcrs: try PCRSelection([0, 7]))
        let encoded = file.encoded()
        #expect(encoded[4] == 3, "a file bound to PCRs is version 3")
        #expect(try TPMDeviceKeyFile.decode(encoded) == file)
        var unbound = file
        unbound.pcrs = .none
        #expect(unbound.encoded()[4] == 2, "without PCRs the file stays version 2, which older builds read")
        #expect(try TPMDeviceKeyFile.decode(unbound.encoded()) == unbound)
        // A PCR outside 0–23 with a checksum that matches is still refused as an unknown format.
        var forged = [UInt8](encoded.prefix(encoded.count - 16))
        forged[6] = 0x01
        forged += SHA256.hash(data: forged).prefix(16)
        #expect(throws: KeystoreError.deviceKeyDamaged(reason: "its TPM file has an unknown format")) {
            try TPMDeviceKeyFile.decode(Data(forged))
        }
    }
}
