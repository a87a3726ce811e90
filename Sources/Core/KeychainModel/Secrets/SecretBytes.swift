import Foundation

/// Bytes that must not outlive their use: a passcode, raw key material read from a file.
///
/// The storage is one fixed allocation that is never copied by growth, locked in memory (`mlock`) where
/// the system allows so it is never written to swap, and overwritten with zeros when the value is
/// released (see `LockedMemory`). Use ``withUnsafeBytes(_:)`` to hand the bytes to a KDF or cipher.
public final class SecretBytes: @unchecked Sendable {
    // Immutable after init; the pointer is only read. Sendable because nothing mutates it.
    private let memory: LockedMemory
    private var storage: UnsafeMutableRawBufferPointer { memory.buffer }

    /// Takes a copy of `bytes` into zeroizing storage.
    public init<Bytes: Collection>(copying bytes: Bytes) where Bytes.Element == UInt8 {
        let memory = LockedMemory(count: Swift.max(bytes.count, 1))
        let storage = memory.buffer
        var index = 0
        for byte in bytes {
            storage[index] = byte
            index += 1
        }
        count = bytes.count
        self.memory = memory
    }

    /// Fills fresh storage of `count` bytes through `initializer`, which returns how many bytes it wrote.
    public init(capacity: Int, initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        // When `initializer` throws, `memory` is released here: zeroized, unlocked and freed.
        let memory = LockedMemory(count: Swift.max(capacity, 1))
        count = try initializer(UnsafeMutableRawBufferPointer(rebasing: memory.buffer[0..<capacity]))
        self.memory = memory
    }

    /// The number of meaningful bytes.
    public let count: Int

    /// Whether there are no bytes.
    public var isEmpty: Bool { count == 0 }

    /// Whether the bytes are locked in memory (`mlock`), so never written to swap. False when the system
    /// refused (`RLIMIT_MEMLOCK` exhausted); the bytes are then zeroized on release all the same.
    public var isLockedInMemory: Bool { memory.isLocked }

    /// The address of the first byte, for tests that check the memory's state. Never dereference it.
    public var address: UInt { UInt(bitPattern: memory.buffer.baseAddress) }

    /// Calls `body` with the bytes. Do not let the pointer escape.
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(UnsafeRawBufferPointer(rebasing: storage[0..<count]))
    }

    /// The number of Unicode scalars if the bytes are UTF-8 (used for passcode length rules without making a `String`).
    public var unicodeScalarCount: Int {
        withUnsafeBytes { bytes in bytes.reduce(0) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 } }
    }

    /// Whether both hold the same bytes (constant time in the length).
    public func isEqual(to other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { lhs in
            other.withUnsafeBytes { rhs in
                var difference: UInt8 = 0
                for index in 0..<lhs.count { difference |= lhs[index] ^ rhs[index] }
                return difference == 0
            }
        }
    }

    // Releasing `memory` zeroizes, unlocks and frees it.
}

extension SecretBytes: Equatable {
    /// Whether both hold the same bytes, in constant time for equal lengths (see ``isEqual(to:)``).
    public static func == (lhs: SecretBytes, rhs: SecretBytes) -> Bool { lhs.isEqual(to: rhs) }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Never the bytes: only their count.
    public var description: String { "<redacted \(count) bytes>" }
    /// Same as ``description``.
    public var debugDescription: String { description }
    /// A mirror without children, so `dump(_:)` shows no bytes.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
