import CofferTestSupport
import Foundation
import KeychainSelection
import KeychainModel
import Query
import Testing

/// In per-user mode the daemon adds no boundary the files do not have: a program the user did not register
/// gets the embedded keychain's view (every item; adds go to `coffer.default`), so `coffer` sees the same
/// items through the daemon as without it. A registered program still gets only its entry's groups.
@Suite("per-user daemon: the view of an unregistered program", .timeLimit(.minutes(10)))
struct PerUserCallerViewTests {
    @Test func anUnregisteredProgramSeesWhatTheEmbeddedKeychainSees() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-view-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = KeychainFolder(url: root.appendingPathComponent("keychain"))
        let embedded = EmbeddedKeychain(folder: folder, caller: .embedded(environment: [:]))
        _ = try embedded.blocking.add(["class": "genp", "svce": "view", "acct": "team", "agrp": "TEAM.other", "v_Data": .data(Data("1".utf8))])
        _ = try embedded.blocking.add(["class": "genp", "svce": "view", "acct": "default", "v_Data": .data(Data("2".utf8))])

        let all: QueryDictionary = ["class": "genp", "svce": "view", "m_Limit": "m_LimitAll", "r_Attributes": true]
        do {
            let daemon = try InProcessDaemon(folder: folder, groups: nil)
            let client = DaemonKeychain(socketPath: daemon.socketPath)
            guard case .array(let items)? = try client.blocking.copyMatching(all) else {
                Issue.record("no array")
                return
            }
            #expect(items.count == 2)
            _ = try client.blocking.add(["class": "genp", "svce": "view", "acct": "through-daemon", "v_Data": .data(Data("3".utf8))])
            let added = try client.blocking.copyMatching(["class": "genp", "svce": "view", "acct": "through-daemon", "r_Attributes": true])
            guard case .dictionary(let attributes)? = added else {
                Issue.record("no attributes")
                return
            }
            #expect(attributes["agrp"] == .string("coffer.default"))
        }
        do {
            let daemon = try InProcessDaemon(folder: folder, groups: ["TEAM.app"])
            let client = DaemonKeychain(socketPath: daemon.socketPath)
            #expect(performing: { try client.blocking.copyMatching(all) }, throws: { ($0 as? KeychainFailure)?.status == .itemNotFound })
        }
    }
}
