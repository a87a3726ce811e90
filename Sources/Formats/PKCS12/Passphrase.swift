import KeychainModel

/// The passphrase of a PKCS#12 file, kept in zeroizing memory, in the two encodings the file's algorithms use.
public struct PKCS12Passphrase: Sendable {
    /// The passphrase's UTF-8 bytes: PBKDF2's password (PBES2, PBMAC1).
    let utf8: SecretBytes

    /// The passphrase as UTF-8 bytes.
    public init(utf8: SecretBytes) {
        self.utf8 = utf8
    }

    /// The passphrase `text`. (A `String` cannot be cleared from memory; prefer ``init(utf8:)`` where the bytes
    /// arrive some other way.)
    public init(_ text: String) {
        utf8 = SecretBytes(copying: Array(text.utf8))
    }

    /// Whether the passphrase is empty.
    public var isEmpty: Bool { utf8.isEmpty }

    /// RFC 7292 appendix B.1's password for the PKCS#12 KDF: the passphrase as a BMPString (UTF-16 big-endian)
    /// with two zero bytes after it, so an empty passphrase is two zero bytes. Nil when the bytes are not UTF-8.
    func bmpString() -> SecretBytes? {
        utf8.withUnsafeBytes { bytes -> SecretBytes? in
            var valid = true
            let result = SecretBytes(capacity: bytes.count * 2 + 2) { output in
                var written = 0
                var iterator = bytes.makeIterator()
                var decoder = UTF8()
                decoding: while true {
                    switch decoder.decode(&iterator) {
                    case .scalarValue(let scalar):
                        for unit in UTF16.encode(scalar)! {
                            output[written] = UInt8(unit >> 8)
                            output[written + 1] = UInt8(unit & 0xFF)
                            written += 2
                        }
                    case .emptyInput:
                        break decoding
                    case .error:
                        valid = false
                        break decoding
                    }
                }
                output[written] = 0
                output[written + 1] = 0
                return written + 2
            }
            return valid ? result : nil
        }
    }
}

/// The password bytes given to the PKCS#12 KDF: the BMPString form, or none at all, the form macOS writes for an
/// empty passphrase and OpenSSL for a missing one.
enum KDFPassword {
    case bmp(SecretBytes)
    case absent

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        switch self {
        case .bmp(let bytes): try bytes.withUnsafeBytes { try body($0) }
        case .absent: try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
    }
}
