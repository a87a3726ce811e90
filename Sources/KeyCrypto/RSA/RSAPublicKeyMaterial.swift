import CryptoExtras
import Foundation

/// An RSA public key as swift-crypto holds it, for signatures and for encryption, with what Apple's
/// operations read from it.
struct RSAPublicKeyMaterial: Sendable {
    let signing: _RSA.Signing.PublicKey
    let encryption: UncheckedSendableKey<_RSA.Encryption.PublicKey>
    /// PKCS#1 `RSAPublicKey` DER: Apple's external representation and the public key bytes.
    let pkcs1Representation: Data
    /// The modulus, big-endian, exactly ``blockSize`` bytes.
    let modulus: Data
    /// The modulus's length in bits (`kSecAttrKeySizeInBits`).
    let sizeInBits: Int

    /// The key in `der`: PKCS#1 `RSAPublicKey` or X.509 `SubjectPublicKeyInfo` (corecrypto reads both).
    /// swift-crypto refuses moduli under 1024 bits.
    init(derRepresentation der: Data) throws {
        try self.init(
            signing: _RSA.Signing.PublicKey(unsafeDERRepresentation: der),
            encryption: _RSA.Encryption.PublicKey(unsafeDERRepresentation: der))
    }

    /// The public half of a private key.
    init(signing: _RSA.Signing.PublicKey, encryption: _RSA.Encryption.PublicKey) throws {
        self.signing = signing
        self.encryption = UncheckedSendableKey(key: encryption)
        pkcs1Representation = signing.pkcs1DERRepresentation
        sizeInBits = signing.keySizeInBits
        let blockSize = (sizeInBits + 7) / 8
        let significant = try signing.getKeyPrimitives().modulus.drop(while: { $0 == 0 })
        modulus = Data(repeating: 0, count: max(blockSize - significant.count, 0)) + significant
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
