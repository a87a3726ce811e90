import Foundation

/// Tells a PKCS#1 `RSAPrivateKey` from other DER, as Apple's import does.
///
/// Apple reads only PKCS#1 (`SEQUENCE { version INTEGER, modulus INTEGER, … }`) for an RSA private key, while
/// swift-crypto also reads PKCS#8 (`SEQUENCE { version INTEGER, algorithm SEQUENCE, … }`). The tag after the
/// version tells them apart; swift-crypto checks the rest.
enum PKCS1PrivateKeyShape {
    /// Whether `der` opens like an `RSAPrivateKey`: a SEQUENCE whose first two elements are INTEGERs.
    static func matches(_ der: Data) -> Bool {
        let bytes = [UInt8](der.prefix(32))
        guard bytes.first == 0x30, let sequence = lengthField(bytes, at: 1) else { return false }
        let version = sequence.contentStart
        guard version < bytes.count, bytes[version] == 0x02, let versionField = lengthField(bytes, at: version + 1)
        else { return false }
        let next = versionField.contentStart + versionField.length
        return next < bytes.count && bytes[next] == 0x02
    }

    /// The DER length field at `index`: where the content starts and how long it is.
    private static func lengthField(_ bytes: [UInt8], at index: Int) -> (contentStart: Int, length: Int)? {
        guard index < bytes.count else { return nil }
        let first = bytes[index]
        if first < 0x80 { return (index + 1, Int(first)) }
        let count = Int(first & 0x7F)
        guard (1...4).contains(count), index + count < bytes.count else { return nil }
        let length = bytes[(index + 1)...(index + count)].reduce(0) { $0 << 8 | Int($1) }
        return (index + 1 + count, length)
    }
}
