import Foundation
import KeychainModel
@testable import Keystore
import Testing

/// The wrap service of protected files: each class against the lock state, class B's public-key wrapping,
/// and the keybag upgrade that gives an old keybag class B's key pair.
@Suite("File keys", .timeLimit(.minutes(10)))
struct FileKeyTests {
    @Test func eachClassUnwrapsOnlyWhenItsClassKeyIsUsable() throws {
        let (keystore, folder) = try keystoreWithPasscode()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        var made: [FileProtectionClass: FileKey] = [:]
        for protection in FileProtectionClass.allCases {
            let key = try keystore.makeFileKey(protection)
            #expect(key.key.count == 32)
            #expect(key.wrapped.wrappedKey.count == 40)
            #expect((key.wrapped.ephemeralPublicKey?.count) == (protection == .completeUnlessOpen ? 32 : nil))
            #expect(try keystore.unwrapFileKey(key.wrapped).key == key.key)
            made[protection] = key
        }
        keystore.lock()
        for protection in [FileProtectionClass.complete, .completeUnlessOpen] {
            #expect(throws: KeystoreError.classUnavailable(.whenUnlocked)) { try keystore.unwrapFileKey(made[protection]!.wrapped) }
        }
        #expect(try keystore.unwrapFileKey(made[.completeUntilFirstUserAuthentication]!.wrapped).key == made[.completeUntilFirstUserAuthentication]!.key)
        #expect(try keystore.unwrapFileKey(made[.none]!.wrapped).key == made[.none]!.key)
        // Class A cannot be made while locked; class B can, with its public key alone.
        #expect(throws: KeystoreError.classUnavailable(.whenUnlocked)) { try keystore.makeFileKey(.complete) }
        let lockedB = try keystore.makeFileKey(.completeUnlessOpen)
        #expect(throws: KeystoreError.classUnavailable(.whenUnlocked)) { try keystore.unwrapFileKey(lockedB.wrapped) }
        try keystore.unlock(passcode: secret("1234"))
        #expect(try keystore.unwrapFileKey(lockedB.wrapped).key == lockedB.key)

        // A new process: before the first unlock only class D; class B can still be made.
        let reopened = try Keystore.open(folder: folder)
        #expect(throws: KeystoreError.classUnavailable(.afterFirstUnlock)) {
            try reopened.unwrapFileKey(made[.completeUntilFirstUserAuthentication]!.wrapped)
        }
        #expect(try reopened.unwrapFileKey(made[.none]!.wrapped).key == made[.none]!.key)
        let beforeFirstUnlockB = try reopened.makeFileKey(.completeUnlessOpen)
        try reopened.unlock(passcode: secret("1234"))
        for key in Array(made.values) + [lockedB, beforeFirstUnlockB] {
            #expect(try reopened.unwrapFileKey(key.wrapped).key == key.key)
        }
    }

    @Test func alteredOrMismatchedWrappedKeysNeverUnwrap() throws {
        let (keystore, folder) = try keystoreWithPasscode()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        let b = try keystore.makeFileKey(.completeUnlessOpen)
        var flipped = b.wrapped
        flipped.ephemeralPublicKey![0] ^= 1
        #expect(throws: KeystoreError.wrappedKeyCorrupt) { try keystore.unwrapFileKey(flipped) }
        var noEphemeral = b.wrapped
        noEphemeral.ephemeralPublicKey = nil
        #expect(throws: KeystoreError.wrappedKeyCorrupt) { try keystore.unwrapFileKey(noEphemeral) }
        let a = try keystore.makeFileKey(.complete)
        var asC = a.wrapped
        asC.protection = .completeUntilFirstUserAuthentication
        #expect(throws: KeystoreError.wrappedKeyCorrupt) { try keystore.unwrapFileKey(asC) }
        // Another keychain's key does not unwrap here.
        let (other, otherFolder) = try keystoreWithPasscode()
        defer { try? FileManager.default.removeItem(at: otherFolder.url.deletingLastPathComponent()) }
        #expect(throws: KeystoreError.wrappedKeyCorrupt) { try other.unwrapFileKey(a.wrapped) }
        #expect(throws: KeystoreError.wrappedKeyCorrupt) { try other.unwrapFileKey(b.wrapped) }
    }

    @Test func classBKeyPairSurvivesPasscodeChanges() throws {
        let (keystore, folder) = try keystoreWithPasscode()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        let b = try keystore.makeFileKey(.completeUnlessOpen)
        try keystore.changePasscode(from: secret("1234"), to: secret("5678"), kdf: .insecureForTesting)
        try keystore.removePasscode(current: secret("5678"))
        let reopened = try Keystore.open(folder: folder)
        #expect(try reopened.unwrapFileKey(b.wrapped).key == b.key)
    }

    /// Rewrites the keybag as version 1 wrote it: no class B key pair.
    private func downgradeToVersion1(_ keystore: Keystore, _ folder: KeychainFolder) throws {
        var keybag = try #require(try KeybagFile.load(from: folder.keybagURL, deviceKey: keystore.deviceKey))
        #expect(keybag.contentVersion == 2)
        #expect(keybag.fileClassB != nil)
        keybag.fileClassB = nil
        keybag.contentVersion = 1
        try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: keystore.deviceKey)
    }

    @Test func aVersion1KeybagWithAPasscodeGetsClassBAtTheNextUnlock() throws {
        let (keystore, folder) = try keystoreWithPasscode()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        let c = try keystore.makeFileKey(.completeUntilFirstUserAuthentication)
        try downgradeToVersion1(keystore, folder)
        let old = try Keystore.open(folder: folder)
        #expect(try KeybagFile.load(from: folder.keybagURL, deviceKey: old.deviceKey)?.contentVersion == 1)
        #expect(throws: KeystoreError.classUnavailable(.whenUnlocked)) { try old.makeFileKey(.completeUnlessOpen) }
        try old.unlock(passcode: secret("1234"))
        let upgraded = try #require(try KeybagFile.load(from: folder.keybagURL, deviceKey: old.deviceKey))
        #expect(upgraded.contentVersion == 2)
        #expect(upgraded.fileClassB?.publicKey.count == 32)
        #expect(try old.unwrapFileKey(c.wrapped).key == c.key)
        let b = try old.makeFileKey(.completeUnlessOpen)
        // The next process makes class B files while locked and reads them after unlocking.
        let next = try Keystore.open(folder: folder)
        let lockedB = try next.makeFileKey(.completeUnlessOpen)
        try next.unlock(passcode: secret("1234"))
        #expect(try next.unwrapFileKey(b.wrapped).key == b.key)
        #expect(try next.unwrapFileKey(lockedB.wrapped).key == lockedB.key)
    }

    @Test func aVersion1KeybagWithoutPasscodeIsUpgradedAtOpen() throws {
        let folder = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        let keystore = try Keystore.open(folder: folder)
        try downgradeToVersion1(keystore, folder)
        let reopened = try Keystore.open(folder: folder)
        #expect(try KeybagFile.load(from: folder.keybagURL, deviceKey: reopened.deviceKey)?.contentVersion == 2)
        let b = try reopened.makeFileKey(.completeUnlessOpen)
        #expect(try reopened.unwrapFileKey(b.wrapped).key == b.key)
    }

    @Test func aKeybagFromANewerVersionIsRefused() throws {
        let folder = makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder.url.deletingLastPathComponent()) }
        let keystore = try Keystore.open(folder: folder)
        var keybag = try #require(try KeybagFile.load(from: folder.keybagURL, deviceKey: keystore.deviceKey))
        keybag.contentVersion = 3
        try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: keystore.deviceKey)
        #expect(throws: KeystoreError.keybagDamaged(reason: "its contents are version 3, newer than this Coffer reads")) {
            try Keystore.open(folder: folder)
        }
    }
}
