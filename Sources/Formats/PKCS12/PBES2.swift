import Crypto
import CryptoExtras
import Foundation
import KeychainModel
import SwiftASN1

/// RFC 8018's PBES2: PBKDF2 of the UTF-8 passphrase, then AES-CBC (swift-crypto) or Triple DES (libcrypto). What
/// OpenSSL 3 writes by default: PBKDF2 with HMAC-SHA-256 and AES-256-CBC.
enum PBES2 {
    /// Decrypts `ciphertext` with the `PBES2-params` `parameters` and `passphrase`.
    static func decrypt(
        _ ciphertext: ArraySlice<UInt8>, parameters: ASN1Node, passphrase: PKCS12Passphrase, budget: PKCS12WorkBudget
    ) throws(PKCS12Error) -> SecretBytes {
        let (kdf, scheme) = try ASN1Reading.run("PBES2-params") {
            try BER.sequence(parameters, identifier: .sequence) { nodes in
                (try PBKDF2Parameters(keyDerivationFunction: AlgorithmIdentifier(berEncoded: &nodes)), try AlgorithmIdentifier(berEncoded: &nodes))
            }
        }
        let iv = try ASN1Reading.run("the PBES2 IV") { try ASN1OctetString(berEncoded: scheme.requiredParameters()).bytes }
        switch scheme.algorithm {
        case OID.aes128CBC: return try aes(ciphertext, kdf: kdf, passphrase: passphrase, keyLength: 16, iv: iv, budget: budget)
        case OID.aes192CBC: return try aes(ciphertext, kdf: kdf, passphrase: passphrase, keyLength: 24, iv: iv, budget: budget)
        case OID.aes256CBC: return try aes(ciphertext, kdf: kdf, passphrase: passphrase, keyLength: 32, iv: iv, budget: budget)
        case OID.desEDE3CBC:
            let cipher = LibCryptoCipher.tripleDES3Key
            let key = try kdf.deriveKey(password: passphrase.utf8, count: cipher.keyLength, budget: budget)
            let keyBytes = key.withUnsafeBytes { SecretBytes(copying: $0) }
            return try cipher.decrypt(ciphertext, key: keyBytes, iv: SecretBytes(copying: iv))
        default:
            throw PKCS12Error(.unsupportedEncryption, "PBES2 cipher \(scheme.algorithm) is not supported")
        }
    }

    private static func aes(
        _ ciphertext: ArraySlice<UInt8>, kdf: PBKDF2Parameters, passphrase: PKCS12Passphrase, keyLength: Int, iv: ArraySlice<UInt8>,
        budget: PKCS12WorkBudget
    ) throws(PKCS12Error) -> SecretBytes {
        guard iv.count == 16 else { throw .malformed("the AES-CBC IV is \(iv.count) bytes long") }
        guard !ciphertext.isEmpty, ciphertext.count % 16 == 0 else { throw .malformed("the AES-CBC ciphertext is \(ciphertext.count) bytes long") }
        let key = try kdf.deriveKey(password: passphrase.utf8, count: keyLength, budget: budget)
        var plaintext: Data
        do {
            plaintext = try AES._CBC.decrypt(ciphertext, using: key, iv: AES._CBC.IV(ivBytes: iv))
        } catch {
            throw .malformed("the contents do not decrypt with AES-CBC")
        }
        defer { plaintext.zeroize() }
        return SecretBytes(copying: plaintext)
    }
}
