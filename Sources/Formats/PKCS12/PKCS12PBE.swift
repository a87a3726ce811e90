import KeychainModel
import SwiftASN1

/// RFC 7292 appendix C's password-based encryption: SHA-1 and the PKCS#12 KDF give the key and IV for Triple DES,
/// RC2 or RC4 (run by libcrypto).
enum PKCS12PBE {
    static let ciphers: [ASN1ObjectIdentifier: LibCryptoCipher] = [
        OID.pbeWithSHAAnd3KeyTripleDESCBC: .tripleDES3Key,
        OID.pbeWithSHAAnd2KeyTripleDESCBC: .tripleDES2Key,
        OID.pbeWithSHAAnd128BitRC2CBC: .rc2CBC128,
        OID.pbeWithSHAAnd40BitRC2CBC: .rc2CBC40,
        OID.pbeWithSHAAnd128BitRC4: .rc4With128BitKey,
        OID.pbeWithSHAAnd40BitRC4: .rc4With40BitKey,
    ]

    /// Decrypts `ciphertext` with `cipher`, the parameters (`pkcs-12PbeParams`: salt, iterations) and `password`.
    static func decrypt(
        _ ciphertext: ArraySlice<UInt8>, cipher: LibCryptoCipher, parameters: ASN1Node, password: KDFPassword,
        budget: PKCS12WorkBudget
    ) throws(PKCS12Error) -> SecretBytes {
        let (salt, iterations) = try ASN1Reading.run("pkcs-12PbeParams") {
            try BER.sequence(parameters, identifier: .sequence) { nodes in
                let salt = try ASN1OctetString(berEncoded: &nodes).bytes
                let iterations = try ASN1Reading.count(&nodes, "the PBE iteration count", maximum: PKCS12Limits.maximumIterations)
                return (salt, iterations)
            }
        }
        let key = try PKCS12KeyDerivation.derive(
            .key, password: password, salt: salt, iterations: iterations, count: cipher.keyLength, digest: .sha1,
            budget: budget)
        let iv: SecretBytes? =
            cipher.ivLength == 0
            ? nil
            : try PKCS12KeyDerivation.derive(
                .iv, password: password, salt: salt, iterations: iterations, count: cipher.ivLength, digest: .sha1,
                budget: budget)
        return try cipher.decrypt(ciphertext, key: key, iv: iv)
    }
}
