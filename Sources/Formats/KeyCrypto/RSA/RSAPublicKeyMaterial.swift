import Foundation

/// An RSA public key, held by libcrypto, with what Apple's operations read from it.
struct RSAPublicKeyMaterial: Sendable {
    let key: LibCryptoRSAKey
    /// PKCS#1 `RSAPublicKey` DER: Apple's external representation and the public key bytes.
    let pkcs1Representation: Data
    /// X.509 `SubjectPublicKeyInfo` DER, what other tools read.
    let subjectPublicKeyInfo: Data
    /// The modulus, big-endian, exactly ``blockSize`` bytes.
    let modulus: Data
    /// The public exponent, big-endian without leading zeros.
    let publicExponent: Data
    /// The modulus's length in bits (`kSecAttrKeySizeInBits`).
    let sizeInBits: Int

    /// The moduli Apple's RSA keys have: up to 8192 bits, any length (a 1024-bit generator can give 1023).
    static let sizes = 1...8192
    /// The moduli Apple generates (`SecRSAPrivateKeyInit`).
    static let generatedSizes = 512...8192

    /// The key in `der`: PKCS#1 `RSAPublicKey` or X.509 `SubjectPublicKeyInfo` (corecrypto reads both).
    init(derRepresentation der: Data) throws(KeyCryptoError) {
        guard let key = LibCryptoRSAKey(publicKey: der) else { throw .param("RSA public key creation from data failed") }
        try self.init(key)
    }

    /// The key of a modulus and a public exponent, big-endian (as SSH and JWK carry them).
    init(modulus: Data, publicExponent: Data) throws(KeyCryptoError) {
        guard let key = LibCryptoRSAKey(modulus: modulus, publicExponent: publicExponent, privateNumbers: nil) else {
            throw .param("RSA public key creation from its numbers failed")
        }
        try self.init(key)
    }

    /// The public key `key` holds.
    init(_ key: LibCryptoRSAKey) throws(KeyCryptoError) {
        guard Self.sizes.contains(key.sizeInBits), let pkcs1 = key.pkcs1PublicKey, let info = key.subjectPublicKeyInfo,
            let modulus = key.modulus, let exponent = key.publicExponent
        else {
            throw .param("RSA public key of \(key.sizeInBits) bits is not supported")
        }
        self.key = key
        pkcs1Representation = pkcs1
        subjectPublicKeyInfo = info
        self.modulus = modulus
        publicExponent = exponent
        sizeInBits = key.sizeInBits
    }

    /// `SecKeyGetBlockSize`: the modulus's length in bytes.
    var blockSize: Int { (sizeInBits + 7) / 8 }

    /// `input` read as Apple reads an RSA block (a signature or a ciphertext): a number with leading zeros
    /// allowed, so a shorter block is padded on the left. A block longer than the modulus, or not below it,
    /// is `errSecParam`.
    func block(_ input: Data) throws(KeyCryptoError) -> Data {
        guard input.count <= blockSize else {
            throw .param("RSA input of \(input.count) bytes is longer than the \(blockSize)-byte modulus")
        }
        let padded = Data(repeating: 0, count: blockSize - input.count) + input
        guard padded.lexicographicallyPrecedes(modulus) else { throw .param("RSA input is not below the modulus") }
        return padded
    }
}
