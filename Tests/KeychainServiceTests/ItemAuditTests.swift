import Foundation
import KeychainModel
import KeychainOperations
@testable import KeychainService
import Query
import Testing

/// Item calls leave one record each in the audit journal: adds, updates and deletes whatever their status, and
/// searches only when they return a secret; never a secret or an attribute's value.
@Suite("Item calls in the audit journal", .timeLimit(.minutes(10)))
struct ItemAuditTests {
    private static let caller = CallerContext(accessGroups: .list(["com.example.audit"]))

    private func records(_ service: KeychainService) throws -> [AuditRecord] {
        try service.engine().auditJournal().records().map { try AuditRecord(decoding: $0.payload, sequence: $0.sequence) }
    }

    @Test func eachItemCallLeavesOneRecordWithItsItemsAndStatus() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-audit-items-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let service = KeychainService(folder: KeychainFolder(url: url))
        let item: QueryDictionary = ["class": "genp", "svce": "audit.example", "acct": "alice"]
        var added = item
        added["v_Data"] = .data(Data("AUDIT-SECRET-VALUE".utf8))
        added["r_PersistentRef"] = .bool(true)
        guard case .value(.data(let reference)?) = service.handle(.add(added), caller: Self.caller) else {
            Issue.record("the add failed")
            return
        }
        var read = item
        read["r_Data"] = .bool(true)
        #expect(service.handle(.copyMatching(read), caller: Self.caller) != .status(.itemNotFound))
        var attributesOnly = item
        attributesOnly["r_Attributes"] = .bool(true)
        _ = service.handle(.copyMatching(attributesOnly), caller: Self.caller)
        #expect(service.handle(.update(query: item, attributesToUpdate: ["labl": "renamed"]), caller: Self.caller) == .value(nil))
        #expect(service.handle(.delete(item), caller: Self.caller) == .value(nil))
        #expect(service.handle(.delete(item), caller: Self.caller).auditStatus == -25300)

        let records = try records(service)
        #expect(records.map(\.event) == [.itemAdded, .secretRead, .itemUpdated, .itemDeleted, .itemDeleted])
        #expect(records.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(records.map(\.status) == [0, 0, 0, 0, -25300])
        #expect(records.dropLast().allSatisfy { $0.items == [reference] && $0.itemClass == "genp" })
        #expect(records.last?.items == [])
        #expect(records.allSatisfy { $0.caller == .thisProcess && $0.accessGroups == ["com.example.audit"] })
        #expect(try service.engine().auditJournal().verify().isIntact)
        // Neither the secret nor an attribute's value is in the journal's files.
        for name in try FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent("audit").path) {
            let bytes = try Data(contentsOf: url.appendingPathComponent("audit").appendingPathComponent(name))
            for text in ["AUDIT-SECRET-VALUE", "audit.example", "alice", "renamed"] { #expect(bytes.range(of: Data(text.utf8)) == nil) }
        }
    }
}
