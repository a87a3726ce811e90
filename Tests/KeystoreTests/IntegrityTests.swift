import KeychainModel
import Foundation
import Keystore
import Testing

@Suite("Keybag and device key integrity", .timeLimit(.minutes(10)))
struct IntegrityTests {
    @Test func everySingleByteChangeToTheKeybagIsDetected() throws {
        let (_, folder) = try keystoreWithPasscode()
        let original = try Data(contentsOf: folder.keybagURL)
        for position in original.indices {
            var damaged = original
            damaged[position] ^= 0x01
            try damaged.write(to: folder.keybagURL)
            #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder) }
            #expect(try Data(contentsOf: folder.keybagURL) == damaged, "a damaged keybag must never be replaced")
        }
        try original.write(to: folder.keybagURL)
        _ = try Keystore.open(folder: folder)
    }

    @Test func damagedKeybagIsReportedAsDamaged() throws {
        let (_, folder) = try keystoreWithPasscode()
        var keybag = try Data(contentsOf: folder.keybagURL)
        keybag[keybag.count / 2] ^= 0xFF
        try keybag.write(to: folder.keybagURL)
        do {
            _ = try Keystore.open(folder: folder)
            Issue.record("opened a damaged keybag")
        } catch let error {
            guard case .keybagDamaged = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.contains("keybag is damaged"))
        }
    }

    @Test func truncatedKeybagIsDetected() throws {
        let (_, folder) = try keystoreWithPasscode()
        let original = try Data(contentsOf: folder.keybagURL)
        for length in [0, 1, 9, original.count / 2, original.count - 1] {
            try original.prefix(length).write(to: folder.keybagURL)
            #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder) }
        }
    }

    @Test func keybagFromAnotherKeychainIsDetected() throws {
        let (_, first) = try keystoreWithPasscode()
        let (_, second) = try keystoreWithPasscode()
        try FileManager.default.removeItem(at: first.keybagURL)
        try FileManager.default.copyItem(at: second.keybagURL, to: first.keybagURL)
        #expect(throws: KeystoreError.keybagDamaged(reason: "its authentication code does not match this keychain's device key")) {
            try Keystore.open(folder: first)
        }
    }

    @Test func everySingleByteChangeToTheDeviceKeyIsDetected() throws {
        let (_, folder) = try keystoreWithPasscode()
        let original = try Data(contentsOf: folder.deviceKeyURL)
        #expect(original.count == 53)
        for position in original.indices {
            var damaged = original
            damaged[position] ^= 0x80
            try damaged.write(to: folder.deviceKeyURL)
            #expect(throws: KeystoreError.self) { try Keystore.open(folder: folder) }
        }
    }

    @Test func missingDeviceKeyBesideAKeybagIsDamageNotANewKeychain() throws {
        let (_, folder) = try keystoreWithPasscode()
        try FileManager.default.removeItem(at: folder.deviceKeyURL)
        #expect(throws: KeystoreError.deviceKeyDamaged(reason: "the file is missing but the keybag exists")) {
            try Keystore.open(folder: folder)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.deviceKeyURL.path))
    }

    @Test func missingKeybagBesideAnItemDatabaseIsDamage() throws {
        let (_, folder) = try keystoreWithPasscode()
        try FileManager.default.removeItem(at: folder.keybagURL)
        _ = FileManager.default.createFile(atPath: folder.databaseURL.path, contents: Data())
        #expect(throws: KeystoreError.keybagDamaged(reason: "the file is missing but the item database exists")) {
            try Keystore.open(folder: folder)
        }
    }

    @Test func filesAre0600InA0700Folder() throws {
        let (_, folder) = try keystoreWithPasscode()
        func mode(_ url: URL) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) ?? -1
        }
        #expect(try mode(folder.url) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(at: folder.url, includingPropertiesForKeys: nil)
        #expect(files.count == 3)
        for file in files { #expect(try mode(file) == 0o600, "\(file.lastPathComponent)") }
    }

    @Test func existingFolderIsTightenedTo0700() throws {
        let folder = makeTemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        _ = try Keystore.open(folder: folder)
        #expect((try FileManager.default.attributesOfItem(atPath: folder.url.path)[.posixPermissions] as? Int) == 0o700)
    }

    @Test func folderFollowsTheEnvironment() {
        #expect(KeychainFolder.fromEnvironment(["COFFER_HOME": "/a/b"]).url.path == "/a/b")
        #expect(KeychainFolder.fromEnvironment(["XDG_DATA_HOME": "/x", "HOME": "/h"]).url.path == "/x/coffer")
        #expect(KeychainFolder.fromEnvironment(["HOME": "/h"]).url.path == "/h/.local/share/coffer")
        #expect(KeychainFolder.fromEnvironment(["XDG_DATA_HOME": "relative", "HOME": "/h"]).url.path == "/h/.local/share/coffer")
    }
}
