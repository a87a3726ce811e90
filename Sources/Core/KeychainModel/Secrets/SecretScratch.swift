import CCofferSystem

/// A fixed-capacity working buffer for secret bytes that arrive piece by piece (a backup's plaintext as it is
/// decrypted chunk by chunk): filled at its end, drained from its front, in zeroizing memory locked where the
/// system allows, like ``SecretBytes``. It never grows by copying, so no stale copy of a secret is left behind.
///
/// Not `Sendable`: one owner fills and drains it.
public final class SecretScratch {
    private let memory: LockedMemory

    /// How many bytes it can hold.
    public var capacity: Int { memory.buffer.count }
    /// The bytes it holds now, at its front.
    public private(set) var count = 0

    /// An empty buffer of `capacity` bytes.
    public init(capacity: Int) {
        memory = LockedMemory(count: Swift.max(capacity, 1))
    }

    /// Appends `bytes`; false (and nothing appended) when they do not fit.
    @discardableResult
    public func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= capacity - count else { return false }
        UnsafeMutableRawBufferPointer(rebasing: memory.buffer[count..<count + bytes.count]).copyMemory(from: bytes)
        count += bytes.count
        return true
    }

    /// Calls `body` with the bytes held. Do not let the pointer escape.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: memory.buffer[0..<count]))
    }

    /// Drops the first `prefix` bytes, moving the rest to the front and zeroing what they leave.
    public func removeFirst(_ prefix: Int) {
        precondition(prefix >= 0 && prefix <= count, "removing more bytes than a scratch buffer holds")
        let rest = count - prefix
        if rest > 0 {
            memory.buffer.baseAddress!.copyMemory(from: memory.buffer.baseAddress! + prefix, byteCount: rest)
        }
        coffer_secure_zero(memory.buffer.baseAddress! + rest, count - rest)
        count = rest
    }

    // Releasing `memory` zeroizes, unlocks and frees it.
}
