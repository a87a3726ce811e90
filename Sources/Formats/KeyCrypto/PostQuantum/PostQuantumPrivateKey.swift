import Crypto
import Foundation
import KeychainModel

/// A post-quantum private key rebuilt from its seed inside the keychain, which decapsulates (ML-KEM) or signs (ML-DSA)
/// there: swift-crypto's keys (BoringSSL's ML-KEM and ML-DSA), with their checks.
public enum PostQuantumPrivateKey: Sendable {
    case mlkem768(MLKEM768.PrivateKey)
    case mlkem1024(MLKEM1024.PrivateKey)
    case mldsa65(MLDSA65.PrivateKey)
    case mldsa87(MLDSA87.PrivateKey)
    case xwing(XWingMLKEM768X25519.PrivateKey)

    /// A new key of `algorithm`: its seed (zeroize after sealing it) and its public key (`rawRepresentation`).
    public static func generate(_ algorithm: PostQuantumAlgorithm) throws(KeyCryptoError) -> (seed: SecretBytes, publicKey: Data) {
        do {
            var seed: Data
            let publicKey: Data
            switch algorithm {
            case .mlkem768:
                let key = try MLKEM768.PrivateKey()
                (seed, publicKey) = (key.seedRepresentation, key.publicKey.rawRepresentation)
            case .mlkem1024:
                let key = try MLKEM1024.PrivateKey()
                (seed, publicKey) = (key.seedRepresentation, key.publicKey.rawRepresentation)
            case .mldsa65:
                let key = try MLDSA65.PrivateKey()
                (seed, publicKey) = (key.seedRepresentation, key.publicKey.rawRepresentation)
            case .mldsa87:
                let key = try MLDSA87.PrivateKey()
                (seed, publicKey) = (key.seedRepresentation, key.publicKey.rawRepresentation)
            case .xwing:
                let key = try XWingMLKEM768X25519.PrivateKey.generate()
                (seed, publicKey) = (key.seedRepresentation, key.publicKey.rawRepresentation)
            }
            defer { seed.zeroize() }
            return (SecretBytes(copying: seed), publicKey)
        } catch {
            throw KeyCryptoError(status: -26276, message: "\(algorithm.name) key generation failed")
        }
    }

    /// The key `seed` makes, checked against `publicKey`: a seed that does not make that public key is refused.
    public init(_ algorithm: PostQuantumAlgorithm, seed: SecretBytes, publicKey: Data) throws(KeyCryptoError) {
        guard seed.count == algorithm.seedLength else {
            throw KeyCryptoError(status: -50, message: "\(algorithm.name) seed is \(seed.count) bytes, not \(algorithm.seedLength)")
        }
        do {
            self = try seed.withUnsafeBytes { bytes in
                let seed = UnsafeRawBufferPointer(bytes)
                switch algorithm {
                case .mlkem768:
                    return .mlkem768(try MLKEM768.PrivateKey(seedRepresentation: seed, publicKey: MLKEM768.PublicKey(rawRepresentation: publicKey)))
                case .mlkem1024:
                    return .mlkem1024(try MLKEM1024.PrivateKey(seedRepresentation: seed, publicKey: MLKEM1024.PublicKey(rawRepresentation: publicKey)))
                case .mldsa65:
                    return .mldsa65(try MLDSA65.PrivateKey(seedRepresentation: seed, publicKey: MLDSA65.PublicKey(rawRepresentation: publicKey)))
                case .mldsa87:
                    return .mldsa87(try MLDSA87.PrivateKey(seedRepresentation: seed, publicKey: MLDSA87.PublicKey(rawRepresentation: publicKey)))
                case .xwing:
                    return .xwing(
                        try XWingMLKEM768X25519.PrivateKey(seedRepresentation: seed, publicKey: XWingMLKEM768X25519.PublicKey(rawRepresentation: publicKey)))
                }
            }
        } catch {
            throw KeyCryptoError(status: -25293, message: "the \(algorithm.name) seed does not make the key's public key")
        }
    }

    /// Whether `publicKey` is a public key of `algorithm` (its length and, for ML-KEM, FIPS 203's modulus check).
    public static func isValidPublicKey(_ publicKey: Data, of algorithm: PostQuantumAlgorithm) -> Bool {
        switch algorithm {
        case .mlkem768: (try? MLKEM768.PublicKey(rawRepresentation: publicKey)) != nil
        case .mlkem1024: (try? MLKEM1024.PublicKey(rawRepresentation: publicKey)) != nil
        case .mldsa65: (try? MLDSA65.PublicKey(rawRepresentation: publicKey)) != nil
        case .mldsa87: (try? MLDSA87.PublicKey(rawRepresentation: publicKey)) != nil
        case .xwing: (try? XWingMLKEM768X25519.PublicKey(rawRepresentation: publicKey)) != nil
        }
    }

    /// The algorithm of this key.
    public var algorithm: PostQuantumAlgorithm {
        switch self {
        case .mlkem768: .mlkem768
        case .mlkem1024: .mlkem1024
        case .mldsa65: .mldsa65
        case .mldsa87: .mldsa87
        case .xwing: .xwing
        }
    }

    /// The shared secret an ML-KEM or X-Wing ciphertext carries (32 bytes). A ciphertext of the wrong length is `errSecParam`;
    /// one of the right length always gives a secret (ML-KEM's implicit rejection: a tampered ciphertext gives a
    /// different one). An ML-DSA key does not decapsulate.
    public func decapsulate(_ ciphertext: Data) throws(KeyCryptoError) -> SecretBytes {
        guard let expected = algorithm.ciphertextLength else {
            throw KeyCryptoError(status: -50, message: "\(algorithm.name) keys do not decapsulate")
        }
        guard ciphertext.count == expected else {
            throw KeyCryptoError(status: -50, message: "an \(algorithm.name) ciphertext is \(expected) bytes, not \(ciphertext.count)")
        }
        let secret: SymmetricKey
        do {
            switch self {
            case .mlkem768(let key): secret = try key.decapsulate(ciphertext)
            case .mlkem1024(let key): secret = try key.decapsulate(ciphertext)
            case .xwing(let key): secret = try key.decapsulate(ciphertext)
            case .mldsa65, .mldsa87: throw KeyCryptoError(status: -50, message: "\(algorithm.name) keys do not decapsulate")
            }
        } catch {
            throw KeyCryptoError(status: -26276, message: "\(algorithm.name) decapsulation failed")
        }
        return secret.withUnsafeBytes { SecretBytes(copying: $0) }
    }

    /// An ML-DSA signature of `message` with FIPS 204's `context` (at most 255 bytes; empty for none), hedged as
    /// swift-crypto signs. An ML-KEM key does not sign.
    public func signature(for message: Data, context: Data) throws(KeyCryptoError) -> Data {
        guard context.count <= 255 else {
            throw KeyCryptoError(status: -50, message: "an ML-DSA context is at most 255 bytes, not \(context.count)")
        }
        do {
            switch self {
            case .mldsa65(let key): return try key.signature(for: message, context: context)
            case .mldsa87(let key): return try key.signature(for: message, context: context)
            case .mlkem768, .mlkem1024, .xwing: break
            }
        } catch {
            throw KeyCryptoError(status: -26276, message: "\(algorithm.name) signing failed")
        }
        throw KeyCryptoError(status: -50, message: "\(algorithm.name) keys do not sign")
    }
}
