/// Four ASCII characters packed into 32 bits, first character in the high byte (`'htps'` is `0x6874_7073`).
public typealias FourCharCode = UInt32

/// A four-character type code, as `MacTypes.h` declares it.
public typealias OSType = FourCharCode

extension FourCharCode {
    /// The four characters of a big-endian code as text: `'htps'` gives `"htps"`, `'ftp '` gives `"ftp "`.
    /// Bytes that are not ASCII are read as Latin-1, so every code has a text form.
    var fourCharacterText: String {
        let bytes = [
            UInt8(truncatingIfNeeded: self >> 24), UInt8(truncatingIfNeeded: self >> 16),
            UInt8(truncatingIfNeeded: self >> 8), UInt8(truncatingIfNeeded: self),
        ]
        return String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    /// The code whose four characters are `text`'s first four bytes (big-endian); nil unless `text` is four bytes.
    init?(fourCharacterText text: String) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count == 4, scalars.allSatisfy({ $0.value < 0x100 }) else { return nil }
        self = scalars.reduce(0) { ($0 << 8) | FourCharCode($1.value) }
    }
}
