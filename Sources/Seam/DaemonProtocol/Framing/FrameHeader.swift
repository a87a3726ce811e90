/// The checks of a frame header (see ``FrameFormat``), done as its bytes arrive: the one place that reads
/// the magic, the version and the announced length, for ``FrameDecoder`` and for the daemon's frame reader.
public enum FrameHeader {
    /// Validates the first `bytes.count` bytes of a header (fewer than ``FrameFormat/headerLength`` when
    /// only part of it has arrived) and returns the announced payload length once the whole header is there.
    ///
    /// A wrong magic byte throws ``ProtocolError/badMagic`` as soon as it is seen, a wrong version
    /// ``ProtocolError/unsupportedVersion(_:)`` once both version bytes are in, and a length above
    /// `maximumPayloadLength` ``ProtocolError/oversized(length:limit:)`` before any payload byte is needed.
    ///
    /// Inlinable, so that a caller in another module reads its own collection's bytes directly rather than
    /// through the generic `Collection` witnesses (which cost about 3 000 instructions a header).
    @inlinable
    public static func payloadLength(
        ofPrefix bytes: some RandomAccessCollection<UInt8>, maximumPayloadLength: Int
    ) throws(ProtocolError) -> Int? {
        let available = bytes.count
        let start = bytes.startIndex
        func byte(_ offset: Int) -> UInt8 { bytes[bytes.index(start, offsetBy: offset)] }
        for offset in 0..<min(available, FrameFormat.magic.count) where byte(offset) != FrameFormat.magic[offset] {
            throw .badMagic
        }
        guard available >= 6 else { return nil }
        let version = UInt16(byte(4)) << 8 | UInt16(byte(5))
        guard version == FrameFormat.version else { throw .unsupportedVersion(version) }
        guard available >= FrameFormat.headerLength else { return nil }
        let length = (6..<10).reduce(0) { $0 << 8 | Int(byte($1)) }
        guard length <= maximumPayloadLength else { throw .oversized(length: length, limit: maximumPayloadLength) }
        return length
    }
}
