import Crypto
import Foundation
import KeychainModel

/// An EC private key as swift-crypto holds it, once for ECDSA and once for ECDH (the same scalar), or a P-256 key
/// another holds (a TPM), with its public key.
enum ECPrivateKeyMaterial: Sendable {
    case p256(P256.Signing.PrivateKey, P256.KeyAgreement.PrivateKey)
    case p384(P384.Signing.PrivateKey, P384.KeyAgreement.PrivateKey)
    case p521(P521.Signing.PrivateKey, P521.KeyAgreement.PrivateKey)
    case heldP256(HeldP256PrivateKey, P256.Signing.PublicKey, P256.KeyAgreement.PublicKey)

    /// A new random key on `curve`.
    init(generatingOn curve: ECCurve) {
        // A scalar swift-crypto just generated is always a valid key-agreement key: the `try!` cannot fail.
        switch curve {
        case .p256:
            let signing = P256.Signing.PrivateKey()
            var scalar = signing.rawRepresentation
            defer { scalar.zeroize() }
            self = .p256(signing, try! P256.KeyAgreement.PrivateKey(rawRepresentation: scalar))
        case .p384:
            let signing = P384.Signing.PrivateKey()
            var scalar = signing.rawRepresentation
            defer { scalar.zeroize() }
            self = .p384(signing, try! P384.KeyAgreement.PrivateKey(rawRepresentation: scalar))
        case .p521:
            let signing = P521.Signing.PrivateKey()
            var scalar = signing.rawRepresentation
            defer { scalar.zeroize() }
            self = .p521(signing, try! P521.KeyAgreement.PrivateKey(rawRepresentation: scalar))
        }
    }

    /// The key whose X9.63 representation (`04‖X‖Y‖K`) is `bytes`; throws when the point is not on the
    /// curve or does not belong to K.
    init(x963Representation bytes: Data, curve: ECCurve) throws {
        switch curve {
        case .p256:
            self = .p256(
                try P256.Signing.PrivateKey(x963Representation: bytes),
                try P256.KeyAgreement.PrivateKey(x963Representation: bytes))
        case .p384:
            self = .p384(
                try P384.Signing.PrivateKey(x963Representation: bytes),
                try P384.KeyAgreement.PrivateKey(x963Representation: bytes))
        case .p521:
            self = .p521(
                try P521.Signing.PrivateKey(x963Representation: bytes),
                try P521.KeyAgreement.PrivateKey(x963Representation: bytes))
        }
    }

    var curve: ECCurve {
        switch self {
        case .p256, .heldP256: .p256
        case .p384: .p384
        case .p521: .p521
        }
    }

    /// `04‖X‖Y‖K`, K padded to the field size: Apple's external representation of the private key. A held key's
    /// private half is not here: its representation is the public key's (`04‖X‖Y`), which no import accepts as a
    /// private key (and Security refuses to export a key the keychain keeps before asking).
    var x963Representation: Data {
        switch self {
        case .heldP256(let held, _, _): held.publicKey
        case .p256(let signing, _): signing.x963Representation
        case .p384(let signing, _): signing.x963Representation
        case .p521(let signing, _): signing.x963Representation
        }
    }

    var publicKey: ECPublicKeyMaterial {
        switch self {
        case .p256(let signing, let agreement): .p256(signing.publicKey, agreement.publicKey)
        case .heldP256(_, let signing, let agreement): .p256(signing, agreement)
        case .p384(let signing, let agreement): .p384(signing.publicKey, agreement.publicKey)
        case .p521(let signing, let agreement): .p521(signing.publicKey, agreement.publicKey)
        }
    }

    /// An ECDSA signature over `digest`, in both encodings.
    func signature(for digest: PrehashedDigest) throws -> (der: Data, raw: Data) {
        switch self {
        case .p256(let signing, _):
            let signature = try signing.signature(for: digest)
            return (signature.derRepresentation, signature.rawRepresentation)
        case .heldP256(let held, _, _):
            let raw: Data
            do {
                raw = try held.sign(HeldP256PrivateKey.signedValue(of: digest.withUnsafeBytes { Data($0) }))
            } catch {
                throw KeyCryptoError(status: KeyCryptoError.Status.notAvailable, message: error.reason)
            }
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
            return (signature.derRepresentation, signature.rawRepresentation)
        case .p384(let signing, _):
            let signature = try signing.signature(for: digest)
            return (signature.derRepresentation, signature.rawRepresentation)
        case .p521(let signing, _):
            let signature = try signing.signature(for: digest)
            return (signature.derRepresentation, signature.rawRepresentation)
        }
    }

    /// The ECDH shared secret (the x coordinate) with `peer`, which must be on the same curve; corecrypto
    /// reports a peer on another curve as `errSecDecode`.
    func sharedSecret(with peer: ECPublicKeyMaterial) throws(KeyCryptoError) -> AgreedSecret {
        do {
            switch (self, peer) {
            case (.p256(_, let agreement), .p256(_, let peerKey)): return .computed(try agreement.sharedSecretFromKeyAgreement(with: peerKey))
            case (.heldP256(let held, _, _), .p256(_, let peerKey)):
                do {
                    return .held(try held.agree(peerKey.x963Representation))
                } catch let failure as HeldP256PrivateKey.Failure {
                    throw KeyCryptoError(status: KeyCryptoError.Status.notAvailable, message: failure.reason)
                }
            case (.p384(_, let agreement), .p384(_, let peerKey)): return .computed(try agreement.sharedSecretFromKeyAgreement(with: peerKey))
            case (.p521(_, let agreement), .p521(_, let peerKey)): return .computed(try agreement.sharedSecretFromKeyAgreement(with: peerKey))
            default: break
            }
        } catch let error as KeyCryptoError {
            throw error
        } catch {
            throw KeyCryptoError(status: KeyCryptoError.Status.decode, message: "ECpriv failed to compute shared secret")
        }
        throw KeyCryptoError(
            status: KeyCryptoError.Status.decode,
            message: "ECpriv failed to compute shared secret: the peer is on P-\(peer.curve.sizeInBits), the key on P-\(curve.sizeInBits)")
    }
}
