import DaemonProtocol
import Foundation
import KeychainModel
import KeychainOperations
import Testing

@Suite("Restore messages", .timeLimit(.minutes(10)))
struct RestoreCodingTests {
    static let stream = SecretBytes(copying: Array("CFBR".utf8) + [1, 0, 0, 0, 0])

    static let requests: [Request] = [
        .restoreBackup(BackupRestore(records: stream, policy: .keep)),
        .restoreBackup(BackupRestore(staging: RestoreStagingID(0xFEED_FACE_CAFE_BEEF), policy: .both)),
        .stageRestore(RestorePart(staging: RestoreStagingID(42), index: 0, records: stream)),
        .stageRestore(RestorePart(staging: RestoreStagingID(.max), index: 70_000, records: SecretBytes(copying: []))),
    ]

    @Test(arguments: requests)
    func requestsRoundTrip(request: Request) throws {
        let envelope = RequestEnvelope(id: 7, request: request)
        #expect(try RequestEnvelope(decodingPayload: try envelope.encodedPayload()) == envelope)
    }

    @Test func aStagedRestoreCarriesItsIdentifierAfterThePolicy() throws {
        let payload = try RequestEnvelope(
            id: 1, request: .restoreBackup(BackupRestore(staging: RestoreStagingID(0x0102_0304_0506_0708), policy: .replace))
        ).encodedPayload()
        #expect(Array(payload.suffix(10)) == [2, 1, 1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func anInvalidStagingPresenceIsMalformed() throws {
        var payload = try RequestEnvelope(id: 1, request: .restoreBackup(BackupRestore(records: Self.stream, policy: .keep))).encodedPayload()
        payload[payload.count - 1] = 2
        #expect(throws: ProtocolError.self) { try RequestEnvelope(decodingPayload: payload) }
    }
}
