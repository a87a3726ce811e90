import Foundation
import KeychainModel
import KeychainOperations

/// What `coffer audit show` keeps of the records: from a time on, of a program, of an item.
struct AuditFilter {
    private let since: Date?
    private let program: String?
    private let item: Data?

    init(since: String?, program: String?, item: String?, now: Date = Date()) throws {
        self.since = try since.map { try Self.time($0, now: now) }
        self.program = program
        self.item = try item.map { text in
            guard let bytes = Hexadecimal.bytes(text) else { throw CLIFailure("--item: \(text) is not a persistent reference in hexadecimal") }
            return Data(bytes)
        }
    }

    func admits(_ record: AuditRecord) -> Bool {
        if let since, record.time < since { return false }
        if let program, record.caller.program?.contains(program) != true { return false }
        if let item, !record.items.contains(item) { return false }
        return true
    }

    /// An ISO 8601 time, or a span ago: `90s`, `15m`, `2h`, `7d`.
    private static func time(_ text: String, now: Date) throws -> Date {
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        if let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count >= 0 {
            return now.addingTimeInterval(-count * unit)
        }
        throw CLIFailure("--since: \(text) is neither an ISO 8601 time (2026-11-29T10:00:00Z) nor a span ago (90s, 15m, 2h, 7d)")
    }
}
