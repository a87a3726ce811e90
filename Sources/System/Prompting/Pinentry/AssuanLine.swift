import KeychainModel

/// One line received from pinentry. Its bytes are zeroized when done, since a `D` line holds the passcode;
/// the buffer is reserved at its largest size up front, so growing it never leaves a copy behind.
final class AssuanLine {
    /// The bytes, without the newline.
    private(set) var bytes: [UInt8] = []

    /// An empty line with room for the longest one allowed.
    init() { bytes.reserveCapacity(AssuanSession.maximumLineLength + 1) }

    deinit { zeroize() }

    /// Whether the line is at its length limit.
    var isFull: Bool { bytes.count >= AssuanSession.maximumLineLength }

    /// Appends one received byte.
    func append(_ byte: UInt8) { bytes.append(byte) }

    /// Whether the line starts with `prefix`.
    func hasPrefix(_ prefix: String) -> Bool { bytes.starts(with: Array(prefix.utf8)) }

    /// Whether the line is `word` alone or `word` followed by a space (`OK`, `OK Pleased to meet you`).
    func isResponse(_ word: String) -> Bool {
        let prefix = Array(word.utf8)
        return bytes.starts(with: prefix) && (bytes.count == prefix.count || bytes[prefix.count] == UInt8(ascii: " "))
    }

    /// The text after `count` bytes, for error messages (never used on a `D` line).
    func text(droppingPrefix count: Int) -> String { String(decoding: bytes.dropFirst(count), as: UTF8.self) }

    /// Decodes the data of a `D` line (its percent escapes undone) onto the end of `passcode`, which was
    /// reserved at its largest size; false when it would grow past `limit` bytes.
    func appendData(to passcode: inout [UInt8], limit: Int) -> Bool {
        var index = 2
        while index < bytes.count {
            guard passcode.count < limit else { return false }
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = Hexadecimal.value(ofDigit: bytes[index + 1]), let low = Hexadecimal.value(ofDigit: bytes[index + 2])
            {
                passcode.append(high << 4 | low)
                index += 3
            } else {
                passcode.append(bytes[index])
                index += 1
            }
        }
        return true
    }

    /// Overwrites the bytes with zeros and empties the line, keeping its storage.
    func zeroize() {
        bytes.zeroize()
        bytes.removeAll(keepingCapacity: true)
    }
}
