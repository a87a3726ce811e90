import Foundation
import KeyCrypto
import KeychainKeys
import KeychainModel
import Query

/// Whether `key` can do `operation` with `algorithm`.
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
    key.handle.isSupported(algorithm.keyAlgorithm, for: operation.keyOperation)
}

/// Signs `dataToSign` (a message or a digest, as `algorithm` says) with a private key.
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCreateSignature(\(algorithm.identifier))", error: error) { () throws(KeychainFailure) -> CFData in
        ResultData(copying: try key.handle.perform(.sign(dataToSign.contiguousData), algorithm: algorithm.keyAlgorithm, through: SharedKeychain.client))
    }
}

/// Checks `signature` over `signedData` with a public key (or the public half of a private key). A
/// signature that does not match answers false with `errSecVerifyFailed`.
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    KeyCall.run("SecKeyVerifySignature(\(algorithm.identifier))", error: error) { () throws(KeychainFailure) -> Bool in
        try key.handle.verifySignature(signature.contiguousData, for: signedData.contiguousData, algorithm: algorithm.keyAlgorithm)
        return true
    } ?? false
}

/// Encrypts `plaintext` with a public key (or the public half of a private key).
public func SecKeyCreateEncryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCreateEncryptedData(\(algorithm.identifier))", error: error) { () throws(KeychainFailure) -> CFData in
        ResultData(copying: try key.handle.encrypt(plaintext.contiguousData, algorithm: algorithm.keyAlgorithm))
    }
}

/// Decrypts `ciphertext` with a private key.
public func SecKeyCreateDecryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCreateDecryptedData(\(algorithm.identifier))", error: error) { () throws(KeychainFailure) -> CFData in
        ResultData(copying: try key.handle.perform(.decrypt(ciphertext.contiguousData), algorithm: algorithm.keyAlgorithm, through: SharedKeychain.client))
    }
}

/// Agrees a key with `publicKey` (ECDH), optionally through an X9.63 KDF with the requested size
/// (``SecKeyKeyExchangeParameter/requestedSize``) and shared info (``SecKeyKeyExchangeParameter/sharedInfo``).
public func SecKeyCopyKeyExchangeResult(
    _ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey, _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCopyKeyExchangeResult(\(algorithm.identifier))", error: error) { () throws(KeychainFailure) -> CFData in
        let options = ValueBridge.query(parameters)
        let requestedSize: Int?
        switch options[SecKeyKeyExchangeParameter.requestedSize.name] {
        case nil: requestedSize = nil
        case .number(let size): requestedSize = Int(size)
        default: throw KeychainFailure(.param, reason: "kSecKeyKeyExchangeParameterRequestedSize must be a CFNumber")
        }
        let sharedInfo: Data?
        switch options[SecKeyKeyExchangeParameter.sharedInfo.name] {
        case nil: sharedInfo = nil
        case .data(let bytes): sharedInfo = bytes
        default: throw KeychainFailure(.param, reason: "kSecKeyKeyExchangeParameterSharedInfo must be a CFData")
        }
        let exchange = PrivateKeyOperation.keyExchange(peer: publicKey.handle.publicKey, requestedSize: requestedSize, sharedInfo: sharedInfo)
        return ResultData(copying: try privateKey.handle.perform(exchange, algorithm: algorithm.keyAlgorithm, through: SharedKeychain.client))
    }
}
