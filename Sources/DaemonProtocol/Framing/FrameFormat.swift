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
        var frame = Data(capacity: headerLength + payload.count)
        frame.append(contentsOf: magic)
        withUnsafeBytes(of: version.bigEndian) { frame.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(payload.count).bigEndian) { frame.append(contentsOf: $0) }
        frame.append(payload)
        return frame
    }
}
