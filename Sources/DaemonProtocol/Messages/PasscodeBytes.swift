/// The passcode an `unlock` request carries, as bytes (UTF-8 of what the user typed), never as a `String`:
/// a `String` cannot be wiped and ends up copied in places nobody controls.
///
/// Its descriptions and mirror are redacted, so logging a ``Request`` does not print it. The receiver
/// copies the bytes into the keystore's zeroizing `SecretBytes` (`SecretBytes(copying: passcode.bytes)`)
/// and then calls ``zeroize()``; a sender does the same with the frame it wrote. Equality compares the
/// bytes in variable time: it exists for tests, not for checking a passcode.
public struct PasscodeBytes: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The passcode's bytes.
    public private(set) var bytes: [UInt8]

    /// A passcode holding `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The number of bytes.
    public var count: Int { bytes.count }

    /// Overwrites the bytes with zeros in place, then empties the value.
    public mutating func zeroize() {
        bytes.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        bytes = []
    }

    public var description: String { "<redacted passcode>" }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
