import ArgumentParser
import BackupFormat
import Foundation
import KeychainModel
import Query
import SyncClient

/// `coffer sync status`: what this device knows of its account, and the conflicts it settled.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show this device's sync state; with --conflicts, the items conflicts removed (30 days).")

    @Flag(help: "List the items conflicts removed in the last 30 days.") var conflicts = false
    @Flag(name: .customLong("show-secrets"), help: "With --conflicts: show their data too (asks for the passcode).")
    var showSecrets = false
    @Flag(help: "Print the result as JSON.") var json = false

    struct ConflictLine: Encodable {
        let at: Date
        let itemClass: String
        let attributes: [String: String]
        let data: String?
    }

    func run() async throws {
        if let daemon = try DaemonSync.client() {
            guard !conflicts else {
                throw CommandFailure("through cofferd, `coffer sync status` shows the state; --conflicts needs the keychain's folder (COFFER_HOME)")
            }
            return try DaemonSync.show(try await DaemonSync.state(daemon), json: json)
        }
        let sync = try LocalKeychain.sync()
        guard try sync.isSetUp else { throw CommandFailure("this keychain does not sync: run `coffer sync setup` or `coffer sync join`") }
        try LocalKeychain.authenticate(sync, reason: "Unlock the keychain to read its sync state.", always: showSecrets)
        guard conflicts else {
            let status = try sync.status()
            if json { return try printJSON(status) }
            print("server:       \(status.server)")
            print("device:       \(status.device) (\(status.deviceID.uuidString.lowercased()))")
            print("key version:  \(status.keyVersion)")
            print("not sent yet: \(status.pending)")
            print("waiting:      \(status.incoming) (until the keychain is unlocked)")
            print("conflicts:    \(status.conflicts) (see --conflicts)")
            return
        }
        let lines = try sync.conflicts().map { conflict in
            let attributes = (try? AttributeSet(decoding: conflict.record.attributes)) ?? AttributeSet()
            var shown: [String: String] = [:]
            for (code, value) in attributes where !["v_Data", "sha1", "accc"].contains(code) { shown[code] = Self.text(value) }
            let data = showSecrets ? conflict.record.secret.map { String(decoding: $0, as: UTF8.self) } : nil
            return ConflictLine(at: conflict.at, itemClass: conflict.record.itemClass.rawValue, attributes: shown, data: data)
        }
        if json { return try printJSON(lines) }
        if lines.isEmpty { print("no conflicts in the last 30 days") }
        for line in lines {
            let names = line.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\(ControlCharacterEscaping.escaped($0.value))" }
            print("\(line.at)  \(line.itemClass)  \(names.joined(separator: " "))\(line.data.map { "  data=\(ControlCharacterEscaping.escaped($0))" } ?? "")")
        }
    }

    private static func text(_ value: AttributeValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): "\(number)"
        case .date(let date): "\(date)"
        case .data(let bytes): bytes.map { String(format: "%02x", $0) }.joined()
        default: "\(value)"
        }
    }
}
