import Foundation
import KeyCrypto
import KeychainSelection
import KeychainModel
import Query
import Synchronization
import Testing

@testable import SSHAgent

/// The agent's keys live in the keychain owner's group: a caller without it sees none of them and is told so, and
/// keys an older agent stored in the group of the `coffer` command that ran it move there on first use.
@Suite(.timeLimit(.minutes(10))) struct AgentKeyGroupTests {
    private static let commandGroup = "unregistered.0123456789abcdef"

    private static func keychain() -> (folder: URL, client: EmbeddedKeychain) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-agent-group-\(UUID().uuidString)")
        let caller = CallerContext(accessGroups: .list([commandGroup])).withOwnerGroups()
        return (folder, EmbeddedKeychain(folder: KeychainFolder(url: folder.appendingPathComponent("keychain")), caller: caller))
    }

    private static func groups(of key: AgentKey, on client: some KeychainClient) throws -> [String] {
        let found = try client.blocking.allMatches([
            .string(QueryKey.itemClass): .string(QueryConstant.classKey), .string(QueryKey.applicationLabel): .data(key.applicationLabel),
            .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitAll), .string(QueryKey.returnAttributes): .bool(true),
        ])
        return found.compactMap { item in
            guard case .dictionary(let attributes) = item else { return nil }
            return attributes[QueryKey.accessGroup]?.stringValue
        }
    }

    @Test func keysAreStoredInTheOwnersGroupAndOlderOnesMoveThere() throws {
        let (folder, client) = Self.keychain()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = KeychainAgentStore(client: client)
        try store.add(try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256), comment: "new@test", tag: AgentKeyTag())
        let stored = try #require(try store.keys().first)
        #expect(try Self.groups(of: stored, on: client) == [OwnerAccessGroups.sshAgent, OwnerAccessGroups.sshAgent])

        // As an older agent left it: both halves in the command's own group.
        try client.blocking.update(
            [.string(QueryKey.itemClass): .string(QueryConstant.classKey), .string(QueryKey.applicationLabel): .data(stored.applicationLabel)],
            attributesToUpdate: [.string(QueryKey.accessGroup): .string(Self.commandGroup)])
        #expect(try Self.groups(of: stored, on: client) == [Self.commandGroup, Self.commandGroup])
        let restarted = KeychainAgentStore(client: client)
        #expect(try restarted.keys().map(\.comment) == ["new@test"])
        #expect(try Self.groups(of: stored, on: client) == [OwnerAccessGroups.sshAgent, OwnerAccessGroups.sshAgent])
    }

    @Test func aCallerWithoutTheOwnersGroupIsToldAndProvesOnce() throws {
        let (folder, owner) = Self.keychain()
        defer { try? FileManager.default.removeItem(at: folder) }
        try KeychainAgentStore(client: owner).add(try AsymmetricKey.generate(type: .ed25519, sizeInBits: 256), comment: "owned@test", tag: AgentKeyTag())

        let script = EmbeddedKeychain(
            folder: KeychainFolder(url: folder.appendingPathComponent("keychain")), caller: CallerContext(accessGroups: .list([Self.commandGroup])))
        let refusal = #expect(throws: AgentRefusal.self) { try KeychainAgentStore(client: script).keys() }
        #expect(refusal?.isOwnerAccessMissing == true)

        // A store that proves (here: the proof fails) asks once per refusal, and reports the refusal.
        let asked = AskCount()
        let proving = KeychainAgentStore(
            client: script,
            ownerAccess: AgentOwnerAccess {
                asked.increment(); return false
            })
        #expect(throws: AgentRefusal.self) { try proving.keys() }
        #expect(asked.value == 1)
    }
}

/// Counts proofs asked for.
private final class AskCount: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
