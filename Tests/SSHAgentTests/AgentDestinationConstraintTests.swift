import Foundation
import Testing

/// Destination constraints (`ssh-add -h`, `restrict-destination-v00@openssh.com`) are not served yet: a key added with
/// them is refused whole, never stored without the restriction it asked for.
@Suite(.timeLimit(.minutes(2)))
struct AgentDestinationConstraintTests {
    @Test func aKeyAddedWithADestinationConstraintIsRefusedNotStoredUnrestricted() throws {
        let harness = try AgentHarness()
        // ssh-add -h names a host by its keys in a known_hosts file (-H: the user's own is read from the passwd home).
        let hostKey = try harness.keygen("host-a", type: "ed25519", comment: "host-a")
        let folder = harness.path(".ssh")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let hostLine = try String(contentsOfFile: hostKey + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        try Data("host-a.example \(hostLine)\n".utf8).write(to: URL(fileURLWithPath: folder + "/known_hosts"))

        for type in ["ed25519", "ecdsa"] {
            let key = try harness.keygen("user-\(type)", type: type, comment: "restricted-\(type)")
            let refused = try harness.run(["ssh-add", "-H", folder + "/known_hosts", "-h", "host-a.example", key])
            #expect(refused.status != 0)
            #expect(refused.errors.contains("agent refused operation"), "\(refused.errors)")
        }
        #expect(try harness.run(["ssh-add", "-l"]).output == "The agent has no identities.\n")
    }
}
