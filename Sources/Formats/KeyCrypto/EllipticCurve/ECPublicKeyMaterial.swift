import Crypto
import Foundation

/// An EC public key as swift-crypto holds it, once for ECDSA and once for ECDH (the same point).
enum ECPublicKeyMaterial: Sendable {
    case p256(P256.Signing.PublicKey, P256.KeyAgreement.PublicKey)
    case p384(P384.Signing.PublicKey, P384.KeyAgreement.PublicKey)
    case p521(P521.Signing.PublicKey, P521.KeyAgreement.PublicKey)

    /// The key whose uncompressed X9.63 representation (`04‖X‖Y`) is `bytes`; throws when the point is not
    /// on the curve.
    init(x963Representation bytes: Data, curve: ECCurve) throws {
        guard bytes.first == 0x04 else { throw CryptoKitError.incorrectKeySize }
        switch curve {
        case .p256:
            self = .p256(
                try P256.Signing.PublicKey(x963Representation: bytes),
                try P256.KeyAgreement.PublicKey(x963Representation: bytes))
        case .p384:
            self = .p384(
                try P384.Signing.PublicKey(x963Representation: bytes),
                try P384.KeyAgreement.PublicKey(x963Representation: bytes))
        case .p521:
            self = .p521(
                try P521.Signing.PublicKey(x963Representation: bytes),
                try P521.KeyAgreement.PublicKey(x963Representation: bytes))
        }
    }

    var curve: ECCurve {
        switch self {
        case .p256: .p256
        case .p384: .p384
        case .p521: .p521
        }
    }

    /// `04‖X‖Y`: Apple's external representation of the public key.
    var x963Representation: Data {
        switch self {
        case .p256(let signing, _): signing.x963Representation
        case .p384(let signing, _): signing.x963Representation
        case .p521(let signing, _): signing.x963Representation
        }
    }

    /// Whether `signature`, in X9.62 DER, signs `digest`. Bytes that are not such a signature do not.
    func isValidSignature(der signature: Data, for digest: PrehashedDigest) -> Bool {
        switch self {
        case .p256(let signing, _):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return signing.isValidSignature(parsed, for: digest)
        case .p384(let signing, _):
            guard let parsed = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return signing.isValidSignature(parsed, for: digest)
        case .p521(let signing, _):
            guard let parsed = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return signing.isValidSignature(parsed, for: digest)
        }
    }

    /// Whether `signature`, r‖s as RFC 4754 encodes it, signs `digest`.
    func isValidSignature(raw signature: Data, for digest: PrehashedDigest) -> Bool {
        switch self {
        case .p256(let signing, _):
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return signing.isValidSignature(parsed, for: digest)
        case .p384(let signing, _):
            guard let parsed = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return signing.isValidSignature(parsed, for: digest)
        case .p521(let signing, _):
            guard let parsed = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return signing.isValidSignature(parsed, for: digest)
        }
    }
}

extension ECPublicKeyMaterial {
    /// X.509 `SubjectPublicKeyInfo` DER: `id-ecPublicKey` with the named curve and the X9.63 point.
    var subjectPublicKeyInfo: Data {
        switch self {
        case .p256(let signing, _): signing.derRepresentation
        case .p384(let signing, _): signing.derRepresentation
        case .p521(let signing, _): signing.derRepresentation
        }
    }
}
