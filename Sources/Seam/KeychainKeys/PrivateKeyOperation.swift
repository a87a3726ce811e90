import Foundation
import KeyCrypto
import KeychainOperations

/// What a private key is asked to do: sign, decrypt or agree a secret. A software key does it here; a
/// key the keychain keeps has the keychain do it.
public enum PrivateKeyOperation: Sendable {
    /// `SecKeyCreateSignature`: signs a message or a digest, as the algorithm says.
    case sign(Data)
    /// `SecKeyCreateDecryptedData`: decrypts a ciphertext made for the key's public key.
    case decrypt(Data)
    /// `SecKeyCopyKeyExchangeResult`: agrees a secret with `peer` (ECDH), through the X9.63 KDF with
    /// `requestedSize` and `sharedInfo` for the algorithms that have one.
    case keyExchange(peer: AsymmetricKey, requestedSize: Int?, sharedInfo: Data?)

    /// The result of running the operation with a software key.
    func run(with key: AsymmetricKey, algorithm: KeyAlgorithm) throws(KeyCryptoError) -> Data {
        switch self {
        case .sign(let input): try key.signature(for: input, algorithm: algorithm)
        case .decrypt(let input): try key.decrypt(input, algorithm: algorithm)
        case .keyExchange(let peer, let requestedSize, let sharedInfo):
            try key.sharedSecret(with: peer, algorithm: algorithm, requestedSize: requestedSize, sharedInfo: sharedInfo)
        }
    }

    /// The request that has the keychain run the operation with `key`.
    func use(of key: KeptKey, algorithm: KeyAlgorithm) -> TokenKeyUse {
        let (operation, input): (TokenKeyUse.Operation, Data) =
            switch self {
            case .sign(let input): (.sign, input)
            case .decrypt(let input): (.decrypt, input)
            case .keyExchange(let peer, let requestedSize, let sharedInfo):
                (.keyExchange(requestedSize: requestedSize, sharedInfo: sharedInfo), peer.externalRepresentation())
            }
        return TokenKeyUse(
            key: key.handle.sealed, operation: operation, algorithm: algorithm.rawValue, input: input, authentication: key.authentication)
    }
}
