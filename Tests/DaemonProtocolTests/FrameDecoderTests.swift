import DaemonProtocol
import KeychainOperations
import Foundation
import Testing

@Suite("Frame decoder", .timeLimit(.minutes(10)))
struct FrameDecoderTests {
    static func header(
        magic: [UInt8] = FrameFormat.magic, version: UInt16 = FrameFormat.version, length: UInt32
    )
        -> [UInt8]
    {
        magic + [UInt8(version >> 8), UInt8(version & 0xFF)] + withUnsafeBytes(of: length.bigEndian) { Array($0) }
    }

    /// Feeds `bytes`, drains frames, then ends the stream; returns the payloads and the error, if any.
    static func decodeAll(
        _ chunks: [[UInt8]], limits: ProtocolLimits = .requests
    ) -> (
        frames: [Data], error: ProtocolError?
    ) {
        var decoder = FrameDecoder(limits: limits)
        var frames: [Data] = []
        do throws(ProtocolError) {
            for chunk in chunks {
                decoder.append(chunk)
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            }
            try decoder.finish()
            return (frames, nil)
        } catch {
            return (frames, error)
        }
    }

    @Test func frameLayoutIsMagicVersionLengthPayload() throws {
        let frame = try FrameFormat.frame(Data([0xAA, 0xBB]), maximumPayloadLength: 100)
        #expect(Array(frame) == Array("CFRP".utf8) + [0, 1, 0, 0, 0, 2, 0xAA, 0xBB])
    }

    @Test func emptyStreamIsClean() {
        let result = Self.decodeAll([])
        #expect(result.frames.isEmpty && result.error == nil)
    }

    @Test func emptyPayloadIsAFrame() {
        let result = Self.decodeAll([Self.header(length: 0)])
        #expect(result.frames == [Data()] && result.error == nil)
    }

    @Test(arguments: 1..<FrameFormat.headerLength)
    func truncatedHeaderAtEndOfStreamIsTruncated(length: Int) {
        let result = Self.decodeAll([Array(Self.header(length: 5).prefix(length))])
        #expect(result.error == .truncated)
    }

    @Test func truncatedPayloadAtEndOfStreamIsTruncated() {
        let result = Self.decodeAll([Self.header(length: 5) + [1, 2, 3]])
        #expect(result.error == .truncated)
    }

    @Test func oversizedLengthFailsBeforeThePayloadArrives() {
        var decoder = FrameDecoder(limits: .requests)
        decoder.append(Self.header(length: UInt32(ProtocolLimits.requests.maximumPayloadLength + 1)))
        #expect(throws: ProtocolError.oversized(length: (17 << 20) + 1, limit: 17 << 20)) { try decoder.nextFrame() }
    }

    @Test func maximumLengthHeaderIsAcceptedAndWaitsForBytes() throws {
        var decoder = FrameDecoder(limits: .requests)
        decoder.append(Self.header(length: UInt32(17 << 20)))
        #expect(try decoder.nextFrame() == nil)
        #expect(throws: ProtocolError.truncated) { try decoder.finish() }
    }

    @Test func hugeLengthIsOversized() {
        let result = Self.decodeAll([Self.header(length: .max)])
        #expect(result.error == .oversized(length: Int(UInt32.max), limit: 17 << 20))
    }

    @Test func wrongVersionIsUnsupported() {
        #expect(Self.decodeAll([Self.header(version: 2, length: 0)]).error == .unsupportedVersion(2))
        #expect(Self.decodeAll([Self.header(version: 0, length: 0)]).error == .unsupportedVersion(0))
    }

    @Test func badMagicIsDetectedFromTheFirstWrongByte() {
        #expect(Self.decodeAll([[0x47]]).error == .badMagic)  // "G", as in an HTTP "GET"
        #expect(Self.decodeAll([Array("CFRX".utf8)]).error == .badMagic)
        #expect(Self.decodeAll([Self.header(magic: Array("cfrp".utf8), length: 0)]).error == .badMagic)
    }

    @Test func garbageAfterAValidFrameFailsAfterDeliveringIt() {
        let result = Self.decodeAll([Self.header(length: 1) + [9] + Array("garbage".utf8)])
        #expect(result.frames == [Data([9])])
        #expect(result.error == .badMagic)
    }

    @Test func failedDecoderStaysFailed() {
        var decoder = FrameDecoder(limits: .requests)
        decoder.append([0])
        #expect(throws: ProtocolError.badMagic) { try decoder.nextFrame() }
        decoder.append(Self.header(length: 0))
        #expect(throws: ProtocolError.badMagic) { try decoder.nextFrame() }
        #expect(throws: ProtocolError.badMagic) { try decoder.finish() }
    }

    @Test func severalFramesInOneReadAreAllReturned() {
        let stream = (0..<50).flatMap { index in
            Self.header(length: UInt32(index)) + Array(repeating: UInt8(index), count: index)
        }
        let result = Self.decodeAll([stream])
        #expect(result.error == nil)
        #expect(result.frames == (0..<50).map { Data(repeating: UInt8($0), count: $0) })
    }

    /// Every way of cutting the stream into reads yields the same frames.
    @Test func arbitrarySplitPointsYieldTheSameFrames() throws {
        var random = SeededGenerator(seed: 77)
        var stream: [UInt8] = []
        var expected: [Data] = []
        for index in 0..<20 {
            let envelope = RequestEnvelope(id: UInt64(index), request: Generate.request(&random))
            stream += try envelope.encodedFrame()
            expected.append(try envelope.encodedPayload())
        }
        // Every single split point, then many random multi-way splits.
        for cut in 0...stream.count {
            let result = Self.decodeAll([Array(stream[..<cut]), Array(stream[cut...])])
            #expect(result.frames == expected && result.error == nil, "cut at \(cut)")
        }
        for _ in 0..<300 {
            var chunks: [[UInt8]] = []
            var start = 0
            while start < stream.count {
                let end = min(stream.count, start + Int.random(in: 0...40, using: &random))
                chunks.append(Array(stream[start..<end]))
                start = end
            }
            let result = Self.decodeAll(chunks)
            #expect(result.frames == expected && result.error == nil)
        }
        let byteByByte = Self.decodeAll(stream.map { [$0] })
        #expect(byteByByte.frames == expected && byteByByte.error == nil)
    }

    @Test func largeFrameArrivingInSmallReadsIsReassembled() throws {
        let secret = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 * 31) })
        let frame = try RequestEnvelope(id: 1, request: .add(["v_Data": .data(secret)])).encodedFrame()
        var decoder = FrameDecoder(limits: .requests)
        var payloads: [Data] = []
        var offset = 0
        while offset < frame.count {
            let end = min(frame.count, offset + 4096)
            decoder.append(frame[offset..<end])
            offset = end
            while let payload = try decoder.nextFrame() { payloads.append(payload) }
        }
        try decoder.finish()
        #expect(payloads.count == 1)
        #expect(try RequestEnvelope(decodingPayload: payloads[0]).request == .add(["v_Data": .data(secret)]))
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func sixteenMebibyteSecretFitsARequest() throws {
        let secret = Data(count: 16 << 20)
        let query: QueryDictionaryLiteral = ["class": "genp", "acct": "a", "svce": "s", "v_Data": .data(secret)]
        let frame = try RequestEnvelope(id: 1, request: .add(query.dictionary)).encodedFrame()
        var decoder = FrameDecoder(limits: .requests)
        decoder.append(frame)
        let payload = try #require(try decoder.nextFrame())
        #expect(try RequestEnvelope(decodingPayload: payload).request == .add(query.dictionary))
    }

    @Test func encoderRefusesOversizedPayloads() {
        let limits = ProtocolLimits(maximumPayloadLength: 64, maximumNestingDepth: 8, maximumValueCount: 100)
        let request = Request.add(["v_Data": .data(Data(count: 100))])
        #expect(throws: ProtocolError.self) {
            try RequestEnvelope(id: 1, request: request).encodedFrame(limits: limits)
        }
        #expect(throws: ProtocolError.oversized(length: 65, limit: 64)) {
            try FrameFormat.frame(Data(count: 65), maximumPayloadLength: 64)
        }
    }
}
