import KeychainModel
import SwiftASN1

/// Decrypts an encrypted content or a shrouded key with the algorithm its AlgorithmIdentifier names.
struct ContentDecryption {
    let passphrase: PKCS12Passphrase
    /// The PKCS#12 KDF's password, in the encoding that verified the MAC.
    let kdfPassword: KDFPassword
    /// The work the whole file may still ask for.
    let budget: PKCS12WorkBudget

    func decrypt(_ ciphertext: ArraySlice<UInt8>, with algorithm: AlgorithmIdentifier) throws(PKCS12Error) -> SecretBytes {
        if algorithm.algorithm == OID.pbes2 {
            let parameters = try ASN1Reading.run("PBES2") { try algorithm.requiredParameters() }
            return try PBES2.decrypt(ciphertext, parameters: parameters, passphrase: passphrase, budget: budget)
        }
        if let cipher = PKCS12PBE.ciphers[algorithm.algorithm] {
            let parameters = try ASN1Reading.run("PKCS#12 PBE") { try algorithm.requiredParameters() }
            return try PKCS12PBE.decrypt(ciphertext, cipher: cipher, parameters: parameters, password: kdfPassword, budget: budget)
        }
        throw PKCS12Error(.unsupportedEncryption, "encryption algorithm \(algorithm.algorithm) is not supported")
    }
}
