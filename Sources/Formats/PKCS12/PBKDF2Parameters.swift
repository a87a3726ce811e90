import Crypto
import CryptoExtras
import KeychainModel
import SwiftASN1

/// RFC 8018's `PBKDF2-params`: salt, iteration count, optional key length and the PRF (HMAC-SHA-1 by default).
struct PBKDF2Parameters {
    let salt: ArraySlice<UInt8>
    let iterations: Int
    let keyLength: Int?
    let prf: PKCS12Digest

    /// Reads the parameters of a `keyDerivationFunc` AlgorithmIdentifier, which must name PBKDF2.
    init(keyDerivationFunction: AlgorithmIdentifier) throws {
        guard keyDerivationFunction.algorithm == OID.pbkdf2 else {
            throw PKCS12Error(.unsupportedEncryption, "key derivation \(keyDerivationFunction.algorithm) is not PBKDF2")
        }
        (salt, iterations, keyLength, prf) = try BER.sequence(try keyDerivationFunction.requiredParameters(), identifier: .sequence) { nodes in
            guard nodes.peekIdentifier == .octetString else {
                throw PKCS12Error(.unsupportedEncryption, "a PBKDF2 salt from another source is not supported")
            }
            let salt = try ASN1OctetString(berEncoded: &nodes).bytes
            guard salt.count <= PKCS12Limits.maximumSaltLength else { throw PKCS12Error.malformed("the PBKDF2 salt is \(salt.count) bytes long") }
            let iterations = try ASN1Reading.count(&nodes, "the PBKDF2 iteration count", maximum: PKCS12Limits.maximumIterations)
            guard iterations >= 1 else { throw PKCS12Error.malformed("the PBKDF2 iteration count is 0") }
            var keyLength: Int?
            if nodes.peekIdentifier == .integer {
                keyLength = try ASN1Reading.count(&nodes, "the PBKDF2 key length", maximum: 64)
            }
            var prf = PKCS12Digest.sha1
            if let prfNode = nodes.next() {
                let identifier = try AlgorithmIdentifier(berEncoded: prfNode)
                guard let digest = Self.prfs[identifier.algorithm] else {
                    throw PKCS12Error(.unsupportedEncryption, "PBKDF2 PRF \(identifier.algorithm) is not supported")
                }
                prf = digest
            }
            ASN1Reading.skipRest(&nodes)
            return (salt, iterations, keyLength, prf)
        }
    }

    /// The PRFs swift-crypto's PBKDF2 runs (HMAC-SHA-224 and the SHA-512/t variants are not among them).
    static let prfs: [ASN1ObjectIdentifier: PKCS12Digest] = [
        OID.hmacWithSHA1: .sha1, OID.hmacWithSHA256: .sha256, OID.hmacWithSHA384: .sha384, OID.hmacWithSHA512: .sha512,
    ]

    /// `count` bytes of PBKDF2 from `password`, paid from `budget` (the iteration count is bounded, so
    /// swift-crypto's lower bound on rounds, meant for new keys, is not applied to files already written).
    func deriveKey(password: SecretBytes, count: Int, budget: PKCS12WorkBudget) throws(PKCS12Error) -> SymmetricKey {
        if let keyLength, keyLength != count { throw .malformed("the PBKDF2 key length \(keyLength) does not fit the cipher (\(count))") }
        try budget.spend(iterations: iterations, outputBytes: count, digestSize: prf.outputSize)
        do {
            return try password.withUnsafeBytes { bytes in
                try KDF.Insecure.PBKDF2.deriveKey(
                    from: bytes, salt: salt, using: prf.pbkdf2Hash, outputByteCount: count, unsafeUncheckedRounds: iterations)
            }
        } catch {
            throw .malformed("PBKDF2 failed")
        }
    }
}
