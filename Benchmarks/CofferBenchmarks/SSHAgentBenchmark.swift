import Foundation
import KeychainSelection
import KeychainModel
import SSHAgent

#if canImport(Glibc)
import Glibc
#endif

/// A signature through `coffer ssh-agent`'s server (`AgentServer`, `SSHAgentService` and `KeychainAgentStore`, the code
/// `coffer ssh-agent -D` runs, here on a thread of this process over an embedded keychain: a release `coffer` is a static
/// executable, which cannot link libsystemd) next to OpenSSH's `ssh-agent` (a process), both on private sockets in a
/// 0700 folder, with the same keys added to each by `ssh-add` (software keys: Ed25519 and ECDSA P-256). Two measures, in
/// alternating blocks: one sign request's round trip on an open connection, and a whole `ssh-keygen -Y sign` process
/// (which connects, lists the keys and signs).
enum SSHAgentBenchmark {
    /// The key types measured: `ssh-keygen -t` and its `-b`.
    static let keyTypes: [(name: String, type: String, bits: String)] = [("Ed25519", "ed25519", "256"), ("ECDSA P-256", "ecdsa", "256")]

    static func run(in scratch: URL, operations: Int, processRuns: Int) throws -> [ItemsBenchmark.Row] {
        let folder = scratch.appendingPathComponent("ssh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let base = ["PATH": "/usr/bin:/bin", "HOME": folder.path]
        let opensshSocket = folder.appendingPathComponent("openssh.sock").path
        let cofferSocket = folder.appendingPathComponent("coffer.sock").path
        let agents = [
            (name: "OpenSSH ssh-agent", socket: opensshSocket),
            (name: "coffer ssh-agent", socket: cofferSocket),
        ]
        let openssh = try SSHAgentProcesses.startAgent(["/usr/bin/ssh-agent", "-D", "-a", opensshSocket], socket: opensshSocket, environment: base)
        defer { SSHAgentProcesses.stop(openssh) }
        let keychain = EmbeddedKeychain(
            folder: KeychainFolder(url: folder.appendingPathComponent("keychain")), caller: .init(accessGroups: .unrestricted(defaultGroup: "bench")))
        let service = SSHAgentService(store: KeychainAgentStore(client: keychain), confirmation: AgentConfirmation(prompter: nil))
        // Its threads serve until the benchmark ends; the socket goes with the scratch folder.
        try AgentServer(path: cofferSocket, service: service).start()

        let message = folder.appendingPathComponent("message").path
        try Data(repeating: 0x5A, count: 256).write(to: URL(fileURLWithPath: message))
        let data = Data((0..<128).map { UInt8(truncatingIfNeeded: $0 &* 37) })
        var rows: [ItemsBenchmark.Row] = []
        var inProcess: [ItemsBenchmark.Row] = []
        for key in keyTypes {
            let file = folder.appendingPathComponent("id_\(key.type)").path
            try BenchmarkProcesses.run(["/usr/bin/ssh-keygen", "-q", "-t", key.type, "-b", key.bits, "-N", "", "-f", file], environment: base)
            for agent in agents {
                try BenchmarkProcesses.run(["/usr/bin/ssh-add", "-q", file], environment: base.merging(["SSH_AUTH_SOCK": agent.socket]) { $1 })
            }
            let frame = AgentSocketClient.signRequest(blob: try publicKeyBlob(file + ".pub"), data: data)
            let clients = try agents.map { try AgentSocketClient(path: $0.socket) }
            let roundTrips = try CertificatesBenchmark.alternating(
                operations: operations, clients.map { client in CertificatesBenchmark.each { try client.sign(frame) } })
            let processes = try CertificatesBenchmark.alternating(
                operations: processRuns,
                agents.map { agent in
                    CertificatesBenchmark.each {
                        try BenchmarkProcesses.run(
                            ["/usr/bin/ssh-keygen", "-Y", "sign", "-q", "-f", file + ".pub", "-n", "file"],
                            environment: base.merging(["SSH_AUTH_SOCK": agent.socket]) { $1 }, input: message)
                    }
                })
            for (index, agent) in agents.enumerated() {
                rows.append(.init(size: 0, operation: "\(key.name): sign request round trip, \(agent.name)", samples: roundTrips[index]))
            }
            for (index, agent) in agents.enumerated() {
                rows.append(.init(size: 0, operation: "\(key.name): `ssh-keygen -Y sign` process, \(agent.name)", samples: processes[index]))
            }
            // The agent's own work for one sign request, without the socket: the keychain search and the signature.
            let payload = Data(frame.dropFirst(4))
            inProcess.append(
                .init(
                    size: 0, operation: "\(key.name): `SSHAgentService.respond` to a sign request, in process",
                    samples: try ItemsBenchmark.timed(operations) {
                        guard case .signature = service.respond(to: payload).response else { throw BenchmarkProcesses.Failure(description: "no signature") }
                    }))
        }
        return rows + inProcess
    }

    /// The key blob of an OpenSSH public key file (its second field, base64).
    static func publicKeyBlob(_ path: String) throws -> Data {
        let line = try String(contentsOfFile: path, encoding: .utf8)
        let fields = line.split(separator: " ")
        guard fields.count >= 2, let blob = Data(base64Encoded: String(fields[1])) else {
            throw BenchmarkProcesses.Failure(description: "\(path) is not an OpenSSH public key")
        }
        return blob
    }

    /// The goal lines: each Coffer figure over OpenSSH's, against the 1.2× goal for software keys.
    static func goals(_ rows: [ItemsBenchmark.Row]) -> String {
        var lines: [String] = ["", "Goal: a signature through `coffer ssh-agent` within 1.2× of OpenSSH's `ssh-agent` for keys added with `ssh-add` (p50):"]
        let compared = rows.filter { !$0.operation.contains("in process") }
        for index in stride(from: 0, to: compared.count, by: 2) {
            let openssh = compared[index]
            let coffer = compared[index + 1]
            let ratio = coffer.p50.seconds / openssh.p50.seconds
            let subject = openssh.operation.replacingOccurrences(of: ", OpenSSH ssh-agent", with: "")
            lines.append("- \(subject): \(String(format: "%.2f", ratio))× \(ratio <= 1.2 ? "(met)" : "(not met)")")
        }
        return lines.joined(separator: "\n")
    }
}
