import CryptoExtras
import Foundation
import KeychainModel

/// An RSA private key as swift-crypto holds it, for signatures and for encryption.
struct RSAPrivateKeyMaterial: Sendable {
    let signing: _RSA.Signing.PrivateKey
    let encryption: UncheckedSendableKey<_RSA.Encryption.PrivateKey>
    let publicKey: RSAPublicKeyMaterial

    /// The key in `der`, a PKCS#1 `RSAPrivateKey` (the only form Apple reads). swift-crypto checks the key's
    /// consistency and refuses moduli under 1024 bits.
    init(pkcs1Representation der: Data) throws {
        guard PKCS1PrivateKeyShape.matches(der) else { throw CryptoKitError.incorrectParameterSize }
        try self.init(
            signing: _RSA.Signing.PrivateKey(unsafeDERRepresentation: der),
            encryption: _RSA.Encryption.PrivateKey(unsafeDERRepresentation: der))
    }

    /// A new key with a `sizeInBits`-bit modulus and exponent 65537, as Apple generates.
    init(generatingBits sizeInBits: Int) throws {
        let signing = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: sizeInBits))
        var der = signing.derRepresentation
        defer { der.zeroize() }
        try self.init(signing: signing, encryption: _RSA.Encryption.PrivateKey(unsafeDERRepresentation: der))
    }

    private init(signing: _RSA.Signing.PrivateKey, encryption: _RSA.Encryption.PrivateKey) throws {
        self.signing = signing
        self.encryption = UncheckedSendableKey(key: encryption)
        publicKey = try RSAPublicKeyMaterial(signing: signing.publicKey, encryption: encryption.publicKey)
    }

    /// PKCS#1 `RSAPrivateKey` DER: Apple's external representation of the private key.
    var pkcs1Representation: Data { signing.derRepresentation }
}
