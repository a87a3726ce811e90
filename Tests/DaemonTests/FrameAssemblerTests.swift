import DaemonProtocol
import Foundation
import Testing

@testable import Daemon

/// The daemon's frame reader: frames whatever the read boundaries, each reserved at its announced
/// length before anything is allocated for it, and the format's refusals as soon as the header shows them.
@Suite("Frame assembler", .timeLimit(.minutes(10)))
struct FrameAssemblerTests {
    private func frame(_ payload: [UInt8]) -> [UInt8] {
        Array(try! FrameFormat.frame(Data(payload), maximumPayloadLength: 1 << 20))
    }

    private func feed(
        _ assembler: inout FrameAssembler, _ bytes: [UInt8], reserve: (Int) -> Bool = { _ in true }
    ) throws(FrameAssembler.Refusal) -> [FrameAssembler.Frame] {
        var frames: [FrameAssembler.Frame] = []
        var failure: FrameAssembler.Refusal?
        bytes.withUnsafeBytes { raw in
            do throws(FrameAssembler.Refusal) { try assembler.consume(raw, reserve: reserve, into: &frames) } catch { failure = error }
        }
        if let failure { throw failure }
        return frames
    }

    @Test func framesSplitAtEveryBoundaryComeOutWhole() throws {
        let stream = frame([1, 2, 3]) + frame([]) + frame(Array(repeating: 7, count: 300))
        for split in 0...stream.count {
            var assembler = FrameAssembler()
            var reserved: [Int] = []
            let record: (Int) -> Bool = {
                reserved.append($0); return true
            }
            let frames = try feed(&assembler, Array(stream[..<split]), reserve: record) + feed(&assembler, Array(stream[split...]), reserve: record)
            #expect(frames.map { Array($0.payload) } == [[1, 2, 3], [], Array(repeating: 7, count: 300)], "split at \(split)")
            #expect(frames.map(\.reserved) == [13, 10, 310])
            #expect(reserved == [13, 10, 310])
            #expect(!assembler.isInsideFrame)
        }
    }

    @Test func oneByteAtATime() throws {
        var assembler = FrameAssembler()
        var frames: [FrameAssembler.Frame] = []
        for byte in frame([9, 8, 7]) { frames += try feed(&assembler, [byte]) }
        #expect(frames.map { Array($0.payload) } == [[9, 8, 7]])
    }

    @Test func aFrameIsReservedAtItsAnnouncedLengthBeforeItsPayloadArrives() throws {
        var assembler = FrameAssembler()
        var asked: [Int] = []
        let header: [UInt8] = Array("CFRP".utf8) + [0, 1] + [0x01, 0x10, 0x00, 0x00]  // 17 MiB
        let frames = try feed(&assembler, header + [1, 2, 3]) {
            asked.append($0); return true
        }
        #expect(frames.isEmpty)
        #expect(asked == [10 + (17 << 20)])
        #expect(assembler.reserved == 10 + (17 << 20))
        #expect(assembler.isInsideFrame)
        // Closing inside the frame gives the reservation back.
        #expect(assembler.discard() == 10 + (17 << 20))
        #expect(assembler.reserved == 0)
        #expect(!assembler.isInsideFrame)
    }

    @Test func aFrameThatDoesNotFitTheBudgetIsRefusedAtItsHeader() {
        var assembler = FrameAssembler()
        let header: [UInt8] = Array("CFRP".utf8) + [0, 1] + [0x01, 0x10, 0x00, 0x00]
        #expect(throws: FrameAssembler.Refusal.overBudget(frameLength: 10 + (17 << 20))) {
            _ = try feed(&assembler, header + [1]) { _ in false }
        }
        #expect(assembler.reserved == 0)
    }

    @Test func theFormatsRefusalsComeAsSoonAsTheHeaderShowsThem() {
        var badMagic = FrameAssembler()
        #expect(throws: FrameAssembler.Refusal.malformed(.badMagic)) { _ = try feed(&badMagic, [UInt8(ascii: "X")]) }
        var badVersion = FrameAssembler()
        #expect(throws: FrameAssembler.Refusal.malformed(.unsupportedVersion(2))) { _ = try feed(&badVersion, Array("CFRP".utf8) + [0, 2]) }
        var oversized = FrameAssembler()
        let limit = ProtocolLimits.requests.maximumPayloadLength
        #expect(throws: FrameAssembler.Refusal.malformed(.oversized(length: 0x7FFF_FFFF, limit: limit))) {
            _ = try feed(&oversized, Array("CFRP".utf8) + [0, 1, 0x7F, 0xFF, 0xFF, 0xFF]) { _ in
                Issue.record("reserved an oversized frame"); return true
            }
        }
    }

    /// The header checks are FrameDecoder's too: both read the same bytes the same way.
    @Test func theClientDecoderAgrees() throws {
        var decoder = FrameDecoder(limits: .requests)
        decoder.append(frame([4, 5]))
        #expect(try decoder.nextFrame() == Data([4, 5]))
        var wrong = FrameDecoder(limits: .requests)
        wrong.append(Array("CFRP".utf8) + [0, 9])
        #expect(throws: ProtocolError.unsupportedVersion(9)) { _ = try wrong.nextFrame() }
    }
}
