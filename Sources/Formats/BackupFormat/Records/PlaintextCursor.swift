/// Writes a backup's plaintext in place, into a buffer of the exact length computed beforehand (zeroizing memory),
/// so the secrets it carries are never copied into a growing array. Integers are big-endian.
struct PlaintextCursor {
    let buffer: UnsafeMutableRawBufferPointer
    var offset = 0

    mutating func append(_ bytes: some Collection<UInt8>) {
        for byte in bytes {
            buffer[offset] = byte
            offset += 1
        }
    }

    mutating func integer(_ value: some FixedWidthInteger) { append(withUnsafeBytes(of: value.bigEndian) { Array($0) }) }

    /// `text`'s UTF-8 length in one byte, then its UTF-8 bytes.
    mutating func text8(_ text: String) {
        append([UInt8(text.utf8.count)])
        append(text.utf8)
    }

    /// The next `count` bytes, to be filled by the caller.
    mutating func reserve(_ count: Int) -> UnsafeMutableRawBufferPointer {
        defer { offset += count }
        return UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }
}
