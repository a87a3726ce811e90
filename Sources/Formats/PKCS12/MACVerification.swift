import Crypto
import KeychainModel
import SwiftASN1

/// Checks the PFX's MAC (RFC 7292 §5.1 and appendix B; RFC 9579's PBMAC1) and says which encoding of the
/// passphrase matched, for the PBE algorithms that follow.
enum MACVerification {
    /// The digests of the classic MAC: HMAC keyed by the PKCS#12 KDF with the same digest.
    static let digests: [ASN1ObjectIdentifier: PKCS12Digest] = [
        OID.sha1: .sha1, OID.sha256: .sha256, OID.sha384: .sha384, OID.sha512: .sha512,
    ]

    /// The KDF password that verified the MAC over `content`. An empty passphrase is tried as two zero bytes (what
    /// OpenSSL and iOS write) and then as no bytes (what macOS writes).
    static func verify(
        _ mac: MacData, over content: ArraySlice<UInt8>, passphrase: PKCS12Passphrase, budget: PKCS12WorkBudget
    ) throws(PKCS12Error) -> KDFPassword {
        if mac.algorithm.algorithm == OID.pbmac1 {
            try verifyPBMAC1(mac, over: content, passphrase: passphrase, budget: budget)
            return try bmpPassword(passphrase)
        }
        guard let digest = digests[mac.algorithm.algorithm] else {
            throw PKCS12Error(.unsupportedMACAlgorithm, "MAC digest \(mac.algorithm.algorithm) is not supported")
        }
        guard mac.digest.count == digest.outputSize else { throw .malformed("the MAC is \(mac.digest.count) bytes long") }
        var candidates = [try bmpPassword(passphrase)]
        if passphrase.isEmpty { candidates.append(.absent) }
        for password in candidates {
            let key = try PKCS12KeyDerivation.derive(
                .mac, password: password, salt: mac.salt, iterations: mac.iterations, count: digest.outputSize, digest: digest,
                budget: budget)
            let matches = key.withUnsafeBytes { digest.isValidHMAC(mac.digest, of: content, key: SymmetricKey(data: $0)) }
            if matches { return password }
        }
        throw PKCS12Error(.macMismatch, "the MAC does not match: wrong passphrase, or the file was changed")
    }

    private static func bmpPassword(_ passphrase: PKCS12Passphrase) throws(PKCS12Error) -> KDFPassword {
        guard let bmp = passphrase.bmpString() else { throw PKCS12Error(.macMismatch, "the passphrase is not UTF-8") }
        return .bmp(bmp)
    }

    /// RFC 9579: PBKDF2 of the UTF-8 passphrase (the MacData's own salt and count are not used), then the HMAC the
    /// parameters name.
    private static func verifyPBMAC1(
        _ mac: MacData, over content: ArraySlice<UInt8>, passphrase: PKCS12Passphrase, budget: PKCS12WorkBudget
    ) throws(PKCS12Error) {
        let (kdf, scheme) = try ASN1Reading.run("PBMAC1 parameters") {
            try BER.sequence(try mac.algorithm.requiredParameters(), identifier: .sequence) { nodes in
                (try PBKDF2Parameters(keyDerivationFunction: AlgorithmIdentifier(berEncoded: &nodes)), try AlgorithmIdentifier(berEncoded: &nodes))
            }
        }
        guard let digest = PBKDF2Parameters.prfs[scheme.algorithm] else {
            throw PKCS12Error(.unsupportedMACAlgorithm, "PBMAC1 MAC \(scheme.algorithm) is not supported")
        }
        guard let keyLength = kdf.keyLength, keyLength > 0 else { throw .malformed("PBMAC1's PBKDF2 parameters have no key length") }
        guard mac.digest.count == digest.outputSize else { throw .malformed("the MAC is \(mac.digest.count) bytes long") }
        let key = try kdf.deriveKey(password: passphrase.utf8, count: keyLength, budget: budget)
        guard digest.isValidHMAC(mac.digest, of: content, key: key) else {
            throw PKCS12Error(.macMismatch, "the MAC does not match: wrong passphrase, or the file was changed")
        }
    }
}
