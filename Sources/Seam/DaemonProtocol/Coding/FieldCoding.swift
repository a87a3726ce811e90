import KeychainModel

extension WireWriter {
    /// A count, then each string (every string counts as one value).
    mutating func texts(_ texts: [String]) throws(ProtocolError) {
        try count(texts.count)
        for text in texts {
            try countValue()
            try self.text(text)
        }
    }

    /// `Duration.components`: seconds and attoseconds, Int64 each.
    mutating func duration(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        int64(seconds)
        int64(attoseconds)
    }

    /// A `Swift.Int` as Int64.
    mutating func int(_ value: Int) { int64(Int64(value)) }

    /// The protection class's AppleKeyStore class number, one byte.
    mutating func protection(_ protection: ProtectionClass) { byte(UInt8(protection.keyclassNumber)) }
}

extension WireReader {
    /// A count, then that many strings.
    mutating func texts() throws(ProtocolError) -> [String] {
        let count = try count(minimumElementSize: 4)
        var texts: [String] = []
        for _ in 0..<count {
            try countValue()
            texts.append(try text())
        }
        return texts
    }

    /// A duration in the form `Duration.components` gives: `|attoseconds| < 10^18`, and attoseconds never of
    /// the opposite sign to seconds. Any other pair is refused, since it would have a second encoding (and
    /// some would make `Duration.components` trap later).
    mutating func duration() throws(ProtocolError) -> Duration {
        let seconds = try int64()
        let attoseconds = try int64()
        let perSecond: Int64 = 1_000_000_000_000_000_000
        guard attoseconds > -perSecond, attoseconds < perSecond,
            !(seconds > 0 && attoseconds < 0), !(seconds < 0 && attoseconds > 0)
        else { throw .malformedPayload(.invalidField("duration")) }
        return Duration(secondsComponent: seconds, attosecondsComponent: attoseconds)
    }

    /// An Int64 as `Swift.Int`.
    mutating func int() throws(ProtocolError) -> Int {
        guard let value = Int(exactly: try int64()) else { throw .malformedPayload(.invalidField("integer")) }
        return value
    }

    /// A protection class by its AppleKeyStore class number.
    mutating func protection() throws(ProtocolError) -> ProtectionClass {
        guard let protection = ProtectionClass(keyclassNumber: Int(try byte())) else {
            throw .malformedPayload(.invalidField("protection class"))
        }
        return protection
    }
}
