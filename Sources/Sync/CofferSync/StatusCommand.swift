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

/// `coffer sync now`: one sync run.
struct NowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "now", abstract: "Sync now: send what changed here, apply what changed elsewhere.")

    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        let sync = try LocalKeychain.sync()
        try LocalKeychain.authenticate(sync, reason: "Unlock the keychain to sync it.")
        let progress = LocalKeychain.progressLine
        let report = try await sync.syncNow(progress: progress)
        LocalKeychain.endProgress(progress != nil)
        if json { return try printJSON(report) }
        print("sent \(report.sent), received \(report.received), applied \(report.applied)", terminator: "")
        if report.conflicts > 0 { print(", \(report.conflicts) conflict(s) settled (coffer sync status --conflicts)", terminator: "") }
        if report.refused > 0 { print(", \(report.refused) record(s) REFUSED (changed or rolled back by the server)", terminator: "") }
        if report.waiting > 0 { print(", \(report.waiting) waiting for the keychain to be unlocked", terminator: "") }
        print("")
        if report.refused > 0 { throw ExitCode(3) }
    }
}

/// `coffer sync leave`: this keychain stops syncing.
struct LeaveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Stop syncing this keychain (its items stay). Remove it from the account on another device with remove-device.")

    func run() async throws {
        let sync = try LocalKeychain.sync()
        try sync.leave()
        print("This keychain no longer syncs.")
    }
}
