import Coffer
import Foundation
import Testing

/// The Swift API's view of the audit journal: the records an item's life leaves, as an async sequence, and the check.
@Suite struct AuditAPITests {
    @Test func anItemsLifeIsReadBackAsRecordsAndTheJournalVerifies() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-audit-api-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let keychain = Keychain(folder: folder)
        try await keychain.set(GenericPassword(service: "audit.api", account: "bob", value: Data("API-SECRET".utf8)))
        _ = try await keychain.item(matching: GenericPasswordQuery(service: "audit.api", account: "bob"))
        try await keychain.delete(matching: GenericPasswordQuery(service: "audit.api", account: "bob"))
        var events: [AuditRecord.Event] = []
        for try await record in keychain.auditRecords() { events.append(record.event) }
        #expect(events.first == .itemAdded && events.contains(.secretRead) && events.last == .itemDeleted, "\(events)")
        var later: [UInt64] = []
        for try await record in keychain.auditRecords(after: 1) { later.append(record.sequence) }
        #expect(later.first == 2)
        guard case .intact(let records, 1, _, 0) = try await keychain.verifyAuditJournal() else {
            Issue.record("the journal did not verify")
            return
        }
        #expect(records == events.count)
    }
}
