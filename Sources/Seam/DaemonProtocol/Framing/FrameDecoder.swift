import Foundation

/// Reassembles frames from a byte stream, whatever the read boundaries: a partial header, a payload spread
/// over many reads, or several frames in one read.
///
/// Feed every read to ``append(_:)``, then call ``nextFrame()`` until it returns `nil`; at end of stream call
/// ``finish()``. The decoder checks each header field as soon as its bytes arrive: a wrong first byte is
/// ``ProtocolError/badMagic`` at once, and an over-long length is ``ProtocolError/oversized(length:limit:)``
/// before any payload is buffered, so a peer can never make it reserve memory beyond the limit: storage grows
/// with the bytes actually received (at most doubling), never from an announced length. Call ``nextFrame()``
/// after every ``append(_:)``; the buffer then holds at most one frame plus one read. After an error the
/// decoder stays failed (every later call throws the same error): close the connection.
///
/// Memory hygiene: a payload may hold a passcode or a secret, so the decoder overwrites the bytes of each
/// frame it hands out, and the old storage whenever it grows or compacts its buffer, with zeros. The payload
/// it returns is the caller's to wipe (`Data.resetBytes(in:)`) once decoded.
///
/// A value type without shared state: one decoder per connection, used from one task or thread at a time.
public struct FrameDecoder: Sendable {
    /// The largest payload accepted.
    public let maximumPayloadLength: Int

    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: ProtocolError?

    /// A decoder that accepts payloads up to `limits.maximumPayloadLength`: ``ProtocolLimits/requests``
    /// in the daemon, ``ProtocolLimits/responses`` in a client.
    public init(limits: ProtocolLimits) {
        maximumPayloadLength = limits.maximumPayloadLength
    }

    /// The number of bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds bytes read from the stream.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        guard failure == nil, !bytes.isEmpty else { return }
        if buffer.capacity - buffer.count < bytes.count { regrow(toHold: bytes.count) }
        buffer.append(contentsOf: bytes)
    }

    /// Adds bytes read from the stream (the copy is a `memcpy`, for the read loops of the daemon and client).
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        append(bytes.bindMemory(to: UInt8.self))
    }

    /// The next complete frame's payload, or `nil` when more bytes are needed.
    ///
    /// Throws ``ProtocolError/badMagic``, ``ProtocolError/unsupportedVersion(_:)`` or
    /// ``ProtocolError/oversized(length:limit:)`` as soon as the header shows it.
    public mutating func nextFrame() throws(ProtocolError) -> Data? {
        if let failure { throw failure }
        do throws(ProtocolError) {
            guard let payloadLength = try checkedHeader() else { return nil }
            let frameLength = FrameFormat.headerLength + payloadLength
            guard bufferedByteCount >= frameLength else { return nil }
            let payloadStart = readIndex + FrameFormat.headerLength
            let payload = Data(buffer[payloadStart..<(readIndex + frameLength)])
            wipe(readIndex..<(readIndex + frameLength))
            readIndex += frameLength
            if readIndex == buffer.count { releaseConsumed() }
            return payload
        } catch {
            failure = error
            wipe(readIndex..<buffer.count)
            throw error
        }
    }

    /// Declares the end of the stream: throws ``ProtocolError/truncated`` when it ended inside a frame
    /// (or the decoder had already failed, with that error). Call it after ``nextFrame()`` returned `nil`.
    public mutating func finish() throws(ProtocolError) {
        if let failure { throw failure }
        guard bufferedByteCount == 0 else {
            failure = .truncated
            wipe(readIndex..<buffer.count)
            throw .truncated
        }
    }

    /// Validates as much of the header as has arrived; returns the payload length once all of it has.
    private func checkedHeader() throws(ProtocolError) -> Int? {
        try FrameHeader.payloadLength(
            ofPrefix: buffer[readIndex..<min(buffer.count, readIndex + FrameFormat.headerLength)],
            maximumPayloadLength: maximumPayloadLength)
    }

    /// Moves the unread bytes into storage large enough for `extra` more, wiping the old storage.
    private mutating func regrow(toHold extra: Int) {
        var grown: [UInt8] = []
        grown.reserveCapacity(max(bufferedByteCount + extra, 2 * buffer.capacity, 4096))
        grown.append(contentsOf: buffer[readIndex...])
        wipe(0..<buffer.count)
        buffer = grown
        readIndex = 0
    }

    /// Empties the (already wiped) buffer, giving back large storage an idle connection does not need.
    private mutating func releaseConsumed() {
        buffer.removeAll(keepingCapacity: buffer.capacity <= 64 << 10)
        readIndex = 0
    }

    private mutating func wipe(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        buffer.withUnsafeMutableBufferPointer { storage in
            UnsafeMutableBufferPointer(rebasing: storage[range]).update(repeating: 0)
        }
    }
}
