import Foundation
import KeychainModel
import KeychainOperations
import Testing

/// The form records are sealed and sent in: every field comes back, and bytes that are not a record are refused,
/// never read as one.
@Suite struct AuditRecordCodingTests {
    private static let kinds: [CallerIdentity.Kind] = [
        .thisProcess, .identityGroup(gid: 990), .registeredPath, .unregistered, .trustedFrontEnd, .person, .keychain,
    ]

    @Test func everyEventAndIdentityComesBack() throws {
        for (index, event) in AuditRecord.Event.allCases.enumerated() {
            let record = AuditRecord(
                sequence: UInt64(index + 1), time: Date(timeIntervalSince1970: 1_790_000_000.125), event: event, operation: "copyMatching",
                caller: CallerIdentity(
                    uid: 1000, pid: -1, program: index.isMultiple(of: 2) ? "/usr/bin/app-é" : nil, kind: Self.kinds[index % Self.kinds.count]),
                accessGroups: ["com.example.a", "com.example.b"], itemClass: index.isMultiple(of: 3) ? nil : "genp", items: [Data([1, 2, 3]), Data()],
                status: -25300,
                detail: index.isMultiple(of: 2) ? nil : "refused")
            #expect(try AuditRecord(decoding: record.encoded(), sequence: record.sequence) == record)
        }
    }

    @Test func bytesThatAreNotARecordAreRefused() throws {
        let record = AuditRecord(
            time: Date(timeIntervalSince1970: 0), event: .locked, operation: "lock", caller: CallerIdentity(uid: 0, kind: .person), status: 0)
        let bytes = record.encoded()
        #expect(throws: AuditRecord.Malformed.self) { try AuditRecord(decoding: Array(bytes.dropLast()), sequence: 1) }
        #expect(throws: AuditRecord.Malformed.self) { try AuditRecord(decoding: bytes + [0], sequence: 1) }
        #expect(throws: AuditRecord.Malformed.self) { try AuditRecord(decoding: [2] + bytes.dropFirst(), sequence: 1) }
        #expect(throws: AuditRecord.Malformed.self) { try AuditRecord(decoding: [], sequence: 1) }
        // A list length far past the end.
        var long = bytes
        long[10...13] = [0xFF, 0xFF, 0xFF, 0xFF][...]
        #expect(throws: AuditRecord.Malformed.self) { try AuditRecord(decoding: long, sequence: 1) }
    }
}
