import ProgramIdentity
import KeychainModel
import Daemon
import Foundation
import KeychainOperations
import Keystore
import Testing

@Suite("One keychain per user", .timeLimit(.minutes(10)))
struct UserKeychainsTests {
    private func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("coffer-users-\(UUID().uuidString)")
    }

    @Test func systemModeKeepsOneKeychainPerUid() throws {
        let state = temporaryFolder()
        let keychains = UserKeychains(mode: .system(stateDirectory: state))
        let first = try keychains.keychain(for: 1001)
        let second = try keychains.keychain(for: 1002)
        #expect(first.folder.url.lastPathComponent == "1001")
        #expect(second.folder.url.lastPathComponent == "1002")
        #expect(try keychains.keychain(for: 1001) === first)
        let mode = try FileManager.default.attributesOfItem(atPath: first.folder.url.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func perUserModeRefusesAnyOtherUid() throws {
        let folder = KeychainFolder(url: temporaryFolder())
        let keychains = UserKeychains(mode: .user(folder: folder, uid: 1001))
        _ = try keychains.keychain(for: 1001)
        #expect(throws: DaemonError.foreignUser(1002)) { try keychains.keychain(for: 1002) }
    }

    @Test func registryChangesAreDurableAndReloaded() throws {
        let state = temporaryFolder()
        let keychain = try UserKeychains(mode: .system(stateDirectory: state)).keychain(for: 7)
        try keychain.changeRegistry { $0.register(RegisteredApp(path: "/usr/bin/x", appID: "T.x", groups: ["T.g"])) }
        let reopened = try UserKeychains(mode: .system(stateDirectory: state)).keychain(for: 7)
        #expect(reopened.apps == [RegisteredApp(path: "/usr/bin/x", appID: "T.x", groups: ["T.g"])])
        let file = keychain.folder.url.appendingPathComponent("apps.json")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
    }

    @Test func anIdleKeychainIsLockedAndTheJournalSaysSo() throws {
        let keychains = UserKeychains(mode: .system(stateDirectory: temporaryFolder()))
        let keychain = try keychains.keychain(for: 7)
        let caller = CallerContext(accessGroups: .list([]))
        #expect(keychain.service.handle(.setPasscode(new: SecretBytes(copying: Array("idle-code".utf8))), caller: caller) == .status(.success))
        #expect(keychain.engine.keystore.lockState == .unlocked)
        keychains.lockIdle(after: .zero)
        #expect(keychain.engine.keystore.lockState != .unlocked)
        let records = try keychain.engine.auditJournal().records().map { try AuditRecord(decoding: $0.payload, sequence: $0.sequence) }
        #expect(records.map(\.event) == [.passcodeChanged, .locked])
        #expect(records.last?.caller == CallerIdentity(uid: 7, kind: .keychain) && records.last?.detail == "locked after being idle")
    }
}
