import DaemonProtocol
import Foundation

/// libFuzzer's entry point: every input must be decoded or refused with a `ProtocolError`, never crash,
/// hang or allocate beyond the limits; whatever decodes must re-encode to exactly the same bytes; and the
/// frame decoder must give the same result however the stream is cut into reads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    ProtocolFuzzChecks.checkPayload(Data(bytes))
    ProtocolFuzzChecks.checkStream(bytes)
    return 0
}

/// The properties the fuzzer checks; a broken one stops the run with `fatalError`, which libFuzzer reports
/// as a crash and saves the input for.
enum ProtocolFuzzChecks {
    /// Decodes `payload` as a request and as a response; what decodes must re-encode to the same bytes.
    static func checkPayload(_ payload: Data) {
        if let request = try? RequestEnvelope(decodingPayload: payload, limits: .requests) {
            guard (try? request.encodedPayload(limits: .requests)) == payload else {
                fatalError("a decoded request did not re-encode to its own bytes")
            }
        }
        if let response = try? ResponseEnvelope(decodingPayload: payload, limits: .responses) {
            guard (try? response.encodedPayload(limits: .responses)) == payload else {
                fatalError("a decoded response did not re-encode to its own bytes")
            }
        }
    }

    /// Decodes `bytes` as a stream in one read and in reads of input-derived sizes; both must agree.
    static func checkStream(_ bytes: [UInt8]) {
        let whole = decodeStream([bytes[...]])
        var chunks: [ArraySlice<UInt8>] = []
        var state = UInt64(truncatingIfNeeded: bytes.count) &* 0x9E37_79B9_7F4A_7C15 | 1
        var offset = 0
        while offset < bytes.count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let end = min(bytes.count, offset + Int(state % 17))
            chunks.append(bytes[offset..<end])
            offset = end
        }
        guard decodeStream(chunks) == whole else { fatalError("split reads changed the decoded frames") }
        for frame in whole.frames { checkPayload(frame) }
    }

    private struct StreamResult: Equatable {
        var frames: [Data] = []
        var error: ProtocolError?
    }

    private static func decodeStream(_ chunks: [ArraySlice<UInt8>]) -> StreamResult {
        var decoder = FrameDecoder(limits: .requests)
        var result = StreamResult()
        do throws(ProtocolError) {
            for chunk in chunks {
                decoder.append(chunk)
                while let frame = try decoder.nextFrame() { result.frames.append(frame) }
            }
            try decoder.finish()
        } catch {
            result.error = error
        }
        return result
    }
}
