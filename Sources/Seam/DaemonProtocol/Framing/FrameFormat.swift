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
        try checkPayloadLength(payload.count, maximumPayloadLength: maximumPayloadLength)
        return payload.withUnsafeBytes { frame(checkedPayload: $0) }
    }

    /// Throws ``ProtocolError/oversized(length:limit:)`` when a payload of `length` bytes is longer than
    /// `maximumPayloadLength` (or than the header's UInt32 length can say).
    static func checkPayloadLength(_ length: Int, maximumPayloadLength: Int) throws(ProtocolError) {
        let limit = min(maximumPayloadLength, Int(UInt32.max))
        guard length <= limit else { throw .oversized(length: length, limit: limit) }
    }

    /// ``frame(_:maximumPayloadLength:)`` for a payload in a buffer whose length
    /// ``checkPayloadLength(_:maximumPayloadLength:)`` accepted.
    static func frame(checkedPayload payload: UnsafeRawBufferPointer) -> Data {
        var frame = Data(count: headerLength + payload.count)
        frame.withUnsafeMutableBytes { bytes in
            bytes.copyBytes(from: magic)
            bytes.storeBytes(of: version.bigEndian, toByteOffset: 4, as: UInt16.self)
            bytes.storeBytes(of: UInt32(payload.count).bigEndian, toByteOffset: 6, as: UInt32.self)
            UnsafeMutableRawBufferPointer(rebasing: bytes[headerLength...]).copyMemory(from: payload)
        }
        return frame
    }
}
