import CLibCrypto
import KeychainModel

/// A block or stream cipher of OpenSSL's libcrypto (Debian's libssl3), for the legacy algorithms swift-crypto
/// does not carry: Triple DES, RC2 and RC4. RC2 and RC4 come from OpenSSL's legacy provider, loaded for each call in
/// a library context of its own.
struct LibCryptoCipher: Sendable {
    /// OpenSSL's name of the cipher.
    let name: String
    let keyLength: Int
    let ivLength: Int
    /// Whether the cipher is in OpenSSL 3's legacy provider.
    let needsLegacyProvider: Bool

    static let tripleDES3Key = LibCryptoCipher(name: "DES-EDE3-CBC", keyLength: 24, ivLength: 8, needsLegacyProvider: false)
    static let tripleDES2Key = LibCryptoCipher(name: "DES-EDE-CBC", keyLength: 16, ivLength: 8, needsLegacyProvider: false)
    static let rc2CBC128 = LibCryptoCipher(name: "RC2-CBC", keyLength: 16, ivLength: 8, needsLegacyProvider: true)
    static let rc2CBC40 = LibCryptoCipher(name: "RC2-40-CBC", keyLength: 5, ivLength: 8, needsLegacyProvider: true)
    static let rc4With128BitKey = LibCryptoCipher(name: "RC4", keyLength: 16, ivLength: 0, needsLegacyProvider: true)
    static let rc4With40BitKey = LibCryptoCipher(name: "RC4-40", keyLength: 5, ivLength: 0, needsLegacyProvider: true)

    /// The plaintext of `ciphertext` (padding removed), in zeroizing memory.
    func decrypt(_ ciphertext: ArraySlice<UInt8>, key: SecretBytes, iv: SecretBytes?) throws(PKCS12Error) -> SecretBytes {
        guard key.count == keyLength, (iv?.count ?? 0) == ivLength else { throw .malformed("\(name): wrong key or IV length") }
        var status = COFFER_LIBCRYPTO_FAILED
        let plaintext = SecretBytes(capacity: ciphertext.count + 32) { output in
            var written = 0
            key.withUnsafeBytes { keyBytes in
                (iv ?? SecretBytes(copying: [UInt8]())).withUnsafeBytes { ivBytes in
                    ciphertext.withUnsafeBytes { input in
                        status = coffer_libcrypto_decrypt(
                            name, needsLegacyProvider ? 1 : 0,
                            keyBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), keyBytes.count,
                            ivBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), ivBytes.count,
                            input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                            output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written)
                    }
                }
            }
            return status == COFFER_LIBCRYPTO_OK ? written : 0
        }
        switch status {
        case COFFER_LIBCRYPTO_OK:
            return plaintext
        case COFFER_LIBCRYPTO_UNAVAILABLE:
            throw PKCS12Error(.cipherUnavailable, "\(name) is not available from libcrypto (OpenSSL's legacy provider could not be loaded)")
        case COFFER_LIBCRYPTO_BAD_DECRYPT:
            throw .malformed("the contents do not decrypt with \(name)")
        default:
            throw .malformed("\(name) decryption failed")
        }
    }
}
