import DaemonProtocol
import Foundation
import KeychainModel
import KeychainOperations
import Testing

@Suite("File key messages", .timeLimit(.minutes(10)))
struct FileKeyCodingTests {
    static let classB = WrappedFileKey(
        protection: .completeUnlessOpen, wrappedKey: Data(repeating: 3, count: 40), ephemeralPublicKey: Data(repeating: 4, count: 32))
    static let classA = WrappedFileKey(protection: .complete, wrappedKey: Data(repeating: 5, count: 40))

    static let requests: [Request] = FileProtectionClass.allCases.map { .makeFileKey($0) } + [.unwrapFileKey(classA), .unwrapFileKey(classB)]
    static let responses: [Response] = [
        .fileKey(FileKey(key: SecretBytes(copying: [UInt8](repeating: 9, count: 32)), wrapped: classA)),
        .fileKey(FileKey(key: SecretBytes(copying: [UInt8](repeating: 8, count: 32)), wrapped: classB)),
    ]

    @Test(arguments: requests)
    func requestsRoundTrip(request: Request) throws {
        let envelope = RequestEnvelope(id: 7, request: request)
        #expect(try RequestEnvelope(decodingPayload: try envelope.encodedPayload()) == envelope)
    }

    @Test(arguments: responses)
    func responsesRoundTrip(response: Response) throws {
        let envelope = ResponseEnvelope(id: 7, response: response)
        #expect(try ResponseEnvelope(decodingPayload: try envelope.encodedPayload()) == envelope)
    }

    @Test func anUnknownClassIsMalformed() throws {
        var payload = try RequestEnvelope(id: 1, request: .makeFileKey(.none)).encodedPayload()
        payload[payload.count - 1] = 5
        #expect(throws: ProtocolError.self) { try RequestEnvelope(decodingPayload: payload) }
    }
}
