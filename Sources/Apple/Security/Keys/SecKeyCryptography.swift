import Foundation
import KeyCrypto
import KeychainClient
import KeychainModel
import KeychainOperations
import Query

/// Whether `key` can do `operation` with `algorithm`.
public func SecKeyIsAlgorithmSupported(_ key: SecKey, _ operation: SecKeyOperationType, _ algorithm: SecKeyAlgorithm) -> Bool {
    switch key.material {
    case .software(let material): material.isSupported(algorithm.keyAlgorithm, for: operation.keyOperation)
    case .token(_, let publicKey, _):
        switch operation {
        case .sign, .decrypt, .keyExchange: TokenKeyOperations.supports(algorithm.keyAlgorithm, operation.keyOperation, publicKey)
        case .verify, .encrypt: false
        }
    }
}

/// Signs `dataToSign` (a message or a digest, as `algorithm` says) with a private key.
public func SecKeyCreateSignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ dataToSign: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCreateSignature(\(algorithm.identifier))", error: error) { () throws(KeyFailure) -> CFData in
        let input = dataToSign.contiguousData
        switch key.material {
        case .software(let material):
            return ResultData(copying: try KeyFailure.catching { () throws(KeyCryptoError) in try material.signature(for: input, algorithm: algorithm.keyAlgorithm) })
        case .token(let handle, _, let authentication):
            return ResultData(copying: try TokenKeyOperations.use(handle, .sign, algorithm, input: input, authentication: authentication))
        }
    }
}

/// Checks `signature` over `signedData` with a public key (or the public half of a private key). A
/// signature that does not match answers false with `errSecVerifyFailed`.
public func SecKeyVerifySignature(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ signedData: CFData, _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    KeyCall.run("SecKeyVerifySignature(\(algorithm.identifier))", error: error) { () throws(KeyFailure) -> Bool in
        let material = try key.softwareKey(for: "verify")
        try KeyFailure.catching { () throws(KeyCryptoError) in
            try material.verifySignature(signature.contiguousData, for: signedData.contiguousData, algorithm: algorithm.keyAlgorithm)
        }
        return true
    } ?? false
}

/// Encrypts `plaintext` with a public key (or the public half of a private key).
public func SecKeyCreateEncryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ plaintext: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCreateEncryptedData(\(algorithm.identifier))", error: error) { () throws(KeyFailure) -> CFData in
        let material = try key.softwareKey(for: "encrypt")
        return ResultData(copying: try KeyFailure.catching { () throws(KeyCryptoError) in
            try material.encrypt(plaintext.contiguousData, algorithm: algorithm.keyAlgorithm)
        })
    }
}

/// Decrypts `ciphertext` with a private key.
public func SecKeyCreateDecryptedData(
    _ key: SecKey, _ algorithm: SecKeyAlgorithm, _ ciphertext: CFData, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCreateDecryptedData(\(algorithm.identifier))", error: error) { () throws(KeyFailure) -> CFData in
        let input = ciphertext.contiguousData
        switch key.material {
        case .software(let material):
            return ResultData(copying: try KeyFailure.catching { () throws(KeyCryptoError) in try material.decrypt(input, algorithm: algorithm.keyAlgorithm) })
        case .token(let handle, _, let authentication):
            return ResultData(copying: try TokenKeyOperations.use(handle, .decrypt, algorithm, input: input, authentication: authentication))
        }
    }
}

/// Agrees a key with `publicKey` (ECDH), optionally through an X9.63 KDF with the requested size
/// (``SecKeyKeyExchangeParameter/requestedSize``) and shared info (``SecKeyKeyExchangeParameter/sharedInfo``).
public func SecKeyCopyKeyExchangeResult(
    _ privateKey: SecKey, _ algorithm: SecKeyAlgorithm, _ publicKey: SecKey, _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    KeyCall.run("SecKeyCopyKeyExchangeResult(\(algorithm.identifier))", error: error) { () throws(KeyFailure) -> CFData in
        let options = ValueBridge.query(parameters)
        let requestedSize: Int?
        switch options[SecKeyKeyExchangeParameter.requestedSize.name] {
        case nil: requestedSize = nil
        case .number(let size): requestedSize = Int(size)
        default: throw KeyFailure(.param, "kSecKeyKeyExchangeParameterRequestedSize must be a CFNumber")
        }
        let sharedInfo: Data?
        switch options[SecKeyKeyExchangeParameter.sharedInfo.name] {
        case nil: sharedInfo = nil
        case .data(let bytes): sharedInfo = bytes
        default: throw KeyFailure(.param, "kSecKeyKeyExchangeParameterSharedInfo must be a CFData")
        }
        let peer = publicKey.publicHalf
        switch privateKey.material {
        case .software(let material):
            return ResultData(copying: try KeyFailure.catching { () throws(KeyCryptoError) in
                try material.sharedSecret(with: peer, algorithm: algorithm.keyAlgorithm, requestedSize: requestedSize, sharedInfo: sharedInfo)
            })
        case .token(let handle, _, let authentication):
            return ResultData(copying: try TokenKeyOperations.use(
                handle, .keyExchange(requestedSize: requestedSize, sharedInfo: sharedInfo), algorithm,
                input: peer.externalRepresentation(), authentication: authentication))
        }
    }
}

extension SecKey {
    /// The software key that verifies or encrypts; a token key does neither (its private key signs,
    /// decrypts and agrees keys; its public key, from ``SecKeyCopyPublicKey(_:)``, does the rest).
    func softwareKey(for operation: String) throws(KeyFailure) -> AsymmetricKey {
        switch material {
        case .software(let key): return key
        case .token: throw KeyFailure(.param, "Invalid key operation: a Secure Enclave private key does not \(operation)")
        }
    }
}

extension KeyFailure {
    /// The value of `body`, its ``KeyCryptoError`` as a failure.
    static func catching<Value>(_ body: () throws(KeyCryptoError) -> Value) throws(KeyFailure) -> Value {
        do {
            return try body()
        } catch {
            throw KeyFailure(error)
        }
    }
}
