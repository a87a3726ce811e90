import DaemonProtocol
import KeychainOperations
import Foundation
import Testing

/// Random bytes, and random damage to valid messages, never crash or hang the decoders: each input is
/// either decoded or refused with a ``ProtocolError``, and whatever decodes re-encodes to the same bytes.
@Suite("Garbage input", .timeLimit(.minutes(10)))
struct GarbageTests {
    @Test func randomBytesNeverCrashTheDecoders() throws {
        var random = SeededGenerator(seed: 0x6A4B_A6E)
        var accepted = 0
        for _ in 0..<100_000 {
            let bytes = random.bytes(Int.random(in: 0...64, using: &random))
            accepted += try Self.check(bytes) ? 1 : 0
        }
        // Tags and lengths are strict, so almost nothing random decodes; some short payloads (e.g. `lock`) do.
        #expect(accepted < 5_000)
    }

    @Test func mutatedValidMessagesNeverCrashTheDecoders() throws {
        var random = SeededGenerator(seed: 0xBAD_F00D)
        for _ in 0..<5_000 {
            var bytes: [UInt8]
            if Bool.random(using: &random) {
                bytes = Array(try RequestEnvelope(id: random.next(), request: Generate.request(&random)).encodedFrame())
            } else {
                bytes = Array(
                    try ResponseEnvelope(id: random.next(), response: Generate.response(&random)).encodedFrame(
                        limits: .requests))
            }
            for _ in 0..<Int.random(in: 1...4, using: &random) where !bytes.isEmpty {
                switch Int.random(in: 0..<3, using: &random) {
                case 0:
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
                default:
                    bytes.insert(
                        UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
                }
            }
            _ = try Self.check(bytes)
            _ = try Self.check(Array(bytes.dropFirst(FrameFormat.headerLength)))
        }
    }

    /// Runs every decoder on `bytes`; returns whether any accepted them. Throws only on a broken invariant.
    static func check(_ bytes: [UInt8]) throws -> Bool {
        var accepted = false
        let payload = Data(bytes)
        if let request = try? RequestEnvelope(decodingPayload: payload) {
            #expect(try request.encodedPayload() == payload)
            accepted = true
        }
        if let response = try? ResponseEnvelope(decodingPayload: payload) {
            #expect(try response.encodedPayload() == payload)
            accepted = true
        }
        var decoder = FrameDecoder(limits: .requests)
        decoder.append(bytes)
        while let frame = try? decoder.nextFrame() {
            _ = try? RequestEnvelope(decodingPayload: frame)
            _ = try? ResponseEnvelope(decodingPayload: frame, limits: .requests)
            accepted = true
        }
        _ = try? decoder.finish()
        return accepted
    }
}
