import Crypto
import CryptoExtras
import Foundation
import KeyCrypto
import KeychainModel
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// The real peers the interop tests talk to: the `openssl` command and Python's `cryptography`
/// (Fixtures/peer.py), installed when missing. Keys reach openssl through PEM files in a 0700 folder,
/// 0600 each, removed afterwards.
enum InteropPeer {
    static let packages = ["openssl", "python3-cryptography"]
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/peer.py").path

    /// What peer.py prints for `command` and its byte arguments.
    static func python(_ command: String, _ arguments: Data...) throws -> String {
        try run(command, arguments)
    }

    /// The bytes of peer.py's hex answer.
    static func pythonBytes(_ command: String, _ arguments: Data...) throws -> Data {
        Data(hexString: try run(command, arguments))
    }

    private static func run(_ command: String, _ arguments: [Data]) throws -> String {
        try DebianPackages.ensureInstalled(packages)
        let outcome = try ChildProcess.run(["/usr/bin/python3", script, command] + arguments.map(hex))
        guard outcome.status == 0 else { throw PeerFailure(description: "peer.py \(command): \(outcome.errorText)") }
        return outcome.outputText.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `openssl` with `arguments` in a private folder holding `files`; its exit status and output.
    static func openssl(_ arguments: [String], files: [String: Data]) throws -> (status: Int32, output: String) {
        try DebianPackages.ensureInstalled(packages)
        var template = Array("/tmp/coffer-keycrypto-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw PeerFailure(description: "mkdtemp failed") }
        let folder = String(cString: made)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, contents) in files {
            let path = "\(folder)/\(name)"
            guard FileManager.default.createFile(atPath: path, contents: contents, attributes: [.posixPermissions: 0o600]) else {
                throw PeerFailure(description: "cannot write \(name)")
            }
        }
        let outcome = try ChildProcess.run(["/usr/bin/openssl"] + arguments.map { $0.replacingOccurrences(of: "@", with: folder + "/") })
        return (outcome.status, outcome.outputText + outcome.errorText)
    }

    static func hex(_ data: Data) -> String { Hexadecimal.text(data) }

    struct PeerFailure: Error, CustomStringConvertible {
        let description: String
    }
}

extension Data {
    /// The bytes a hex string spells (pairs of hex digits).
    init(hexString: String) { self.init(Hexadecimal.bytes(hexString) ?? []) }
}
