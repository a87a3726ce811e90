import Foundation
import KeychainClient
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// Adds the logins of an export to the keychain, a batch of 500 per transaction (``Request/addEach(_:)``), and
/// reports what it did: added, already there (an item with the same primary key, so running it again adds
/// nothing), and what was left out and why. Progress goes to standard error: redrawn on a terminal, a line per
/// thousand otherwise.
struct PasswordImport {
    static let batchSize = 500

    let source: ImportSource
    let origin: String
    let client: any KeychainClient

    struct Report {
        var added = 0
        var alreadyPresent = 0
        var failed: [ImportNote] = []
    }

    func run() throws -> Report {
        var report = Report()
        let progress = ImportProgress(total: source.logins.count, verb: "imported")
        var start = 0
        while start < source.logins.count {
            let batch = Array(source.logins[start..<min(start + Self.batchSize, source.logins.count)])
            let outcomes = try ItemCommandSupport.run("import") { () throws(KeychainFailure) in
                try client.blocking.addEach(batch.map(\.query))
            }
            for (login, outcome) in zip(batch, outcomes) {
                if outcome.isSuccess {
                    report.added += 1
                } else if outcome == .duplicateItem {
                    report.alreadyPresent += 1
                } else {
                    report.failed.append(ImportNote(entry: login.title, reason: "\(outcome.name) (\(outcome.code)): \(outcome.explanation)"))
                }
            }
            start += batch.count
            progress.update(start)
        }
        progress.finish()
        return report
    }

    /// The summary and the entries left out, as printed on standard output.
    func summary(_ report: Report) -> String {
        var lines = [
            "imported \(source.logins.count) logins from \(origin): \(report.added) added, \(report.alreadyPresent) already in the keychain"
                + (report.failed.isEmpty ? "" : ", \(report.failed.count) refused")
                + (source.unreadable.isEmpty ? "" : ", \(source.unreadable.count) unreadable")
        ]
        let notes = report.failed + source.unreadable + source.leftOut
        if !notes.isEmpty {
            lines.append("not imported, or not in full (\(notes.count)):")
            for note in notes { lines.append("  \(ControlCharacterEscaping.escaped(note.entry)): \(note.reason)") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A count of items done: a line redrawn on a terminal (at most ten times a second), else a line per thousand.
final class ImportProgress {
    private var total: Int
    private let verb: String
    private let terminal = isatty(STDERR_FILENO) == 1
    private var lastDrawn = ContinuousClock.now - .seconds(1)
    private var lastThousand = 0

    init(total: Int, verb: String) {
        self.total = total
        self.verb = verb
    }

    /// Starts counting again towards `total` (once the count is known).
    func restart(total: Int) {
        self.total = total
        lastThousand = 0
    }

    func update(_ done: Int) {
        if terminal {
            let now = ContinuousClock.now
            guard now - lastDrawn >= .milliseconds(100) || done >= total else { return }
            lastDrawn = now
            FileHandle.standardError.write(Data("\rcoffer: \(verb) \(done) of \(total)".utf8))
        } else {
            while lastThousand + 1_000 <= done {
                lastThousand += 1_000
                FileHandle.standardError.write(Data("coffer: \(verb) \(lastThousand) of \(total)\n".utf8))
            }
        }
    }

    func finish() {
        if terminal, total > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
