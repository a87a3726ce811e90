import Foundation

/// The frame that carries every message between a client and `cofferd`.
///
/// ```
/// offset  size  field
///      0     4  magic, ASCII "CFRP"
///      4     2  protocol version, UInt16 big-endian (currently 1)
///      6     4  payload length, UInt32 big-endian, at most the direction's
///               ``ProtocolLimits/maximumPayloadLength``
///     10     n  payload: one message (see ``RequestEnvelope`` and ``ResponseEnvelope``)
/// ```
///
/// The magic and version come first and keep this layout in every future version, so a peer can always
/// tell "not Coffer" (``ProtocolError/badMagic``) from "another version" (``ProtocolError/unsupportedVersion(_:)``).
public enum FrameFormat {
    /// The four bytes every frame starts with: ASCII `CFRP` (Coffer Protocol).
    public static let magic: [UInt8] = Array("CFRP".utf8)
    /// The protocol version this build writes and accepts.
    public static let version: UInt16 = 1
    /// The size of the header before the payload: magic, version and length.
    public static let headerLength = 10

    /// Wraps `payload` in a frame; throws ``ProtocolError/oversized(length:limit:)`` when it is longer than
    /// `maximumPayloadLength`, which the receiving decoder would refuse.
    public static func frame(
        _ payload: Data, maximumPayloadLength: Int
    ) throws(ProtocolError) -> Data {
        let limit = min(maximumPayloadLength, Int(UInt32.max))
        guard payload.count <= limit else { throw .oversized(length: payload.count, limit: limit) }
        var frame = header(payloadLength: payload.count)
        frame.append(payload)
        return frame
    }

    /// ``frame(_:maximumPayloadLength:)`` for a payload in a buffer whose length the caller has checked.
    static func frame(checkedPayload payload: UnsafeRawBufferPointer) -> Data {
        var frame = header(payloadLength: payload.count)
        if let base = payload.baseAddress, !payload.isEmpty {
            frame.append(base.assumingMemoryBound(to: UInt8.self), count: payload.count)
        }
        return frame
    }

    /// The header of a frame whose payload is `payloadLength` bytes, with room for the payload.
    private static func header(payloadLength: Int) -> Data {
        var header = [UInt8](repeating: 0, count: headerLength)
        header.replaceSubrange(0..<4, with: magic)
        header[4] = UInt8(version >> 8)
        header[5] = UInt8(version & 0xFF)
        withUnsafeBytes(of: UInt32(payloadLength).bigEndian) { header.replaceSubrange(6..<10, with: $0) }
        var frame = Data(capacity: headerLength + payloadLength)
        frame.append(contentsOf: header)
        return frame
    }
}
