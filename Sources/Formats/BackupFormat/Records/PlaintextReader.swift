/// Reads a backup's plaintext with every length checked against what is left: a damaged or crafted length is
/// ``BackupFormatError/damaged(_:)``, never a read past the end.
struct PlaintextReader {
    let bytes: UnsafeRawBufferPointer
    /// What `bytes` are, for people ("the item list", "the content").
    let whole: String
    var offset = 0

    mutating func take(_ count: Int) throws(BackupFormatError) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= bytes.count - offset else { throw .damaged("a length runs past the end of \(whole)") }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count])
    }

    mutating func byte() throws(BackupFormatError) -> UInt8 { try take(1)[0] }

    /// A big-endian unsigned integer.
    mutating func integer<Value: FixedWidthInteger & UnsignedInteger>(_ type: Value.Type) throws(BackupFormatError) -> Value {
        try take(MemoryLayout<Value>.size).reduce(Value(0)) { $0 << 8 | Value($1) }
    }

    /// A one-byte length, then that many bytes of UTF-8.
    mutating func text8() throws(BackupFormatError) -> String {
        let raw = try take(Int(try byte()))
        guard let text = String(validating: raw, as: UTF8.self) else { throw .damaged("a name is not UTF-8") }
        return text
    }

    /// A length read as UInt64, refused when it exceeds what is left.
    func length(_ value: UInt64) throws(BackupFormatError) -> Int {
        guard value <= UInt64(bytes.count - offset) else { throw .damaged("a length runs past the end of \(whole)") }
        return Int(value)
    }
}
