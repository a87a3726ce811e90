import DaemonProtocol
import Foundation

/// Reassembles one connection's request frames (``FrameFormat``, checked by ``FrameHeader``) from the
/// chunks the socket delivers, whatever their boundaries.
///
/// Unlike ``FrameDecoder``, which grows its buffer with the bytes received, the assembler sizes each
/// payload buffer to the announced length, once, and only after the frame's bytes were reserved against
/// the caller's budget: a header that announces more than the budget allows is refused before anything
/// is allocated, and a partial frame never holds more than it reserved. Pages of the buffer the peer has
/// not sent are not touched, so a stalled frame's memory grows only with the bytes that arrived.
///
/// Used by one thread at a time (the connection lends it to the worker that reads); not thread-safe.
struct FrameAssembler {
    /// A complete frame: its payload and the bytes reserved for it, which the receiver now owns.
    struct Frame: Sendable {
        /// The payload (the caller wipes it once decoded: it may hold a secret).
        var payload: Data
        /// The bytes reserved for the frame (header and payload), to be released when it is answered.
        let reserved: Int
    }

    /// Why the bytes were refused; the connection is to be closed.
    enum Refusal: Error, Equatable {
        /// The bytes break the frame format (``FrameHeader``'s checks).
        case malformed(ProtocolError)
        /// The frame's announced length could not be reserved.
        case overBudget(frameLength: Int)
    }

    /// The largest payload accepted (``ProtocolLimits/requests``).
    let maximumPayloadLength: Int
    private var header: [UInt8] = []
    private var payload: Data?
    private var payloadLength = 0
    /// The bytes reserved for the frame being received (0 between frames).
    private(set) var reserved = 0

    /// An assembler accepting payloads up to `maximumPayloadLength` bytes.
    init(maximumPayloadLength: Int = ProtocolLimits.requests.maximumPayloadLength) {
        self.maximumPayloadLength = maximumPayloadLength
        header.reserveCapacity(FrameFormat.headerLength)
    }

    /// Whether part of a frame has arrived and the rest has not.
    var isInsideFrame: Bool { !header.isEmpty }

    /// Takes the bytes of one read: completed frames are appended to `frames`. `reserve` is asked for
    /// each frame's length (header and payload) as soon as its header is complete; when it refuses, the
    /// assembler throws ``Refusal/overBudget(frameLength:)`` having allocated nothing for that frame.
    mutating func consume(
        _ bytes: UnsafeRawBufferPointer, reserve: (Int) -> Bool, into frames: inout [Frame]
    ) throws(Refusal) {
        var offset = 0
        while offset < bytes.count {
            if payload == nil {
                let take = min(FrameFormat.headerLength - header.count, bytes.count - offset)
                header.append(contentsOf: bytes[offset..<(offset + take)])
                offset += take
                let length: Int?
                do throws(ProtocolError) {
                    length = try FrameHeader.payloadLength(ofPrefix: header, maximumPayloadLength: maximumPayloadLength)
                } catch {
                    throw .malformed(error)
                }
                guard let length else { continue }
                let frameLength = FrameFormat.headerLength + length
                guard reserve(frameLength) else { throw .overBudget(frameLength: frameLength) }
                reserved = frameLength
                payloadLength = length
                payload = Data(capacity: length)
            }
            let missing = payloadLength - payload!.count
            let take = min(missing, bytes.count - offset)
            if take > 0 {
                payload!.append(bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self), count: take)
                offset += take
            }
            if payload!.count == payloadLength {
                frames.append(Frame(payload: payload.take()!, reserved: reserved))
                header.removeAll(keepingCapacity: true)
                reserved = 0
            }
        }
    }

    /// Drops a partial frame (the connection closed inside it), wiping what arrived of its payload;
    /// returns the bytes that were reserved for it, for the caller to release.
    mutating func discard() -> Int {
        if var partial = payload.take() { partial.resetBytes(in: 0..<partial.count) }
        header.removeAll()
        defer { reserved = 0 }
        return reserved
    }
}
