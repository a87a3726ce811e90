import Coffer
import Foundation
import KeychainSelection
import KeychainModel

/// Backup and restore of a large keychain (issue #18): `count` generic passwords bulk-imported into an embedded
/// keychain, `Keychain.backup(to:password:)` to a file (scrypt at its standard cost, then the AES-GCM chunks,
/// written durably), and `Keychain.restore(from:password:)` of that file into a fresh keychain with another device
/// key (checked whole, then written in one transaction). Goal: each under 20 s for 100,000 items.
enum BackupBenchmark {
    struct Row {
        let operation: String
        let seconds: Double
    }

    static func run(in scratch: URL, count: Int, rounds: Int) throws -> [Row] {
        let source = scratch.appendingPathComponent("backup-source")
        let embedded = EmbeddedKeychain(folder: KeychainFolder(url: source), caller: .init(accessGroups: .unrestricted(defaultGroup: "bench")))
        try ItemsBenchmark.populate(embedded, count: count)
        let keychain = Keychain(client: embedded)
        let file = scratch.appendingPathComponent("keychain.cofferbackup")
        var rows: [Row] = []
        for round in 0..<rounds {
            let password = SecretBytes(copying: Array("correct horse battery staple".utf8))
            var started = ContinuousClock.now
            try blockUntilDone {
                let summary = try await keychain.backup(to: file, password: password)
                precondition(summary.itemCount == count, "the backup holds \(summary.itemCount) items")
            }
            rows.append(Row(operation: "backup of \(count) items", seconds: seconds(since: started)))
            let target = scratch.appendingPathComponent("backup-target-\(round)")
            let restored = Keychain(
                client: EmbeddedKeychain(folder: KeychainFolder(url: target), caller: .init(accessGroups: .unrestricted(defaultGroup: "bench"))))
            started = ContinuousClock.now
            try blockUntilDone {
                let report = try await restored.restore(from: file, password: password)
                precondition(report.added == count, "the restore added \(report.added) items")
            }
            rows.append(Row(operation: "restore of \(count) items", seconds: seconds(since: started)))
            try? FileManager.default.removeItem(at: target)
        }
        return rows
    }

    static func report(_ rows: [Row], count: Int) -> String {
        var lines = ["\n### Backup and restore of \(count) items (embedded keychain)\n", "| operation | median | min | max |", "| --- | --- | --- | --- |"]
        for operation in Set(rows.map(\.operation)).sorted() {
            let times = rows.filter { $0.operation == operation }.map(\.seconds).sorted()
            lines.append(String(format: "| %@ | %.1f s | %.1f s | %.1f s |", operation, times[times.count / 2], times.first!, times.last!))
        }
        let worst = rows.map(\.seconds).max() ?? 0
        lines.append("\nGoal: each under 20 s for 100,000 items: \(worst < 20 ? "met" : "not met") (slowest run \(String(format: "%.1f", worst)) s).")
        return lines.joined(separator: "\n")
    }

    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
