import KeychainModel

/// Reads one line of secret bytes from a descriptor: a passcode typed on a terminal, or given to a script
/// on standard input.
///
/// Bytes are read one at a time, so nothing after the line is consumed, straight into ``SecretBytes``. A
/// line longer than the limit is refused, never cut short: a passcode set from its first bytes would not
/// be the one the person typed.
public struct SecretLineReader: Sendable {
    /// Why no line was read.
    public enum Failure: Error, Sendable, Hashable {
        /// The line is longer than `limit` bytes.
        case tooLong(limit: Int)
        /// The time to answer ran out before the line ended.
        case timedOut
    }

    /// The longest line read by default, in bytes.
    public static let standardLimit = 4096

    /// The longest line read, in bytes (without its newline).
    public let limit: Int

    /// A reader of lines of at most `limit` bytes.
    public init(limit: Int = standardLimit) {
        self.limit = limit
    }

    /// Reads bytes up to a newline (not included; a carriage return before it is dropped too). Nil at the
    /// end of input with no bytes read; a read error ends the line as the end of input does. Past
    /// `timeout` (none when nil), `Failure.timedOut`.
    public func readLine(from descriptor: Int32, timeout: Duration? = nil) throws(Failure) -> SecretBytes? {
        let deadline = Deadline.after(timeout)
        let limit = self.limit
        var sawAnything = false
        var tooLong = false
        var timedOut = false
        let line = SecretBytes(capacity: limit + 1) { buffer in
            var count = 0
            reading: while true {
                switch DescriptorIO.readByte(from: descriptor, until: deadline) {
                case .end:
                    break reading
                case .timedOut:
                    timedOut = true
                    break reading
                case .byte(let byte):
                    sawAnything = true
                    if byte == UInt8(ascii: "\n") { break reading }
                    // One byte past the limit is kept, for a carriage return before the newline.
                    guard count <= limit else {
                        tooLong = true
                        break reading
                    }
                    buffer[count] = byte
                    count += 1
                }
            }
            if count > 0, buffer[count - 1] == UInt8(ascii: "\r") { count -= 1 }
            if count > limit { tooLong = true }
            return tooLong || timedOut ? 0 : count
        }
        guard !timedOut else { throw .timedOut }
        guard !tooLong else { throw .tooLong(limit: limit) }
        return sawAnything ? line : nil
    }
}
