import KeyCrypto

/// What a key is asked to do, for ``SecKeyIsAlgorithmSupported(_:_:_:)``.
public enum SecKeyOperationType: Int, Sendable {
    /// ``SecKeyCreateSignature(_:_:_:_:)``.
    case sign = 0
    /// ``SecKeyVerifySignature(_:_:_:_:_:)``.
    case verify = 1
    /// ``SecKeyCreateEncryptedData(_:_:_:_:)``.
    case encrypt = 2
    /// ``SecKeyCreateDecryptedData(_:_:_:_:)``.
    case decrypt = 3
    /// ``SecKeyCopyKeyExchangeResult(_:_:_:_:_:)``.
    case keyExchange = 4

    /// The operation as the cryptography module knows it.
    var keyOperation: KeyOperation {
        switch self {
        case .sign: .sign
        case .verify: .verify
        case .encrypt: .encrypt
        case .decrypt: .decrypt
        case .keyExchange: .keyExchange
        }
    }
}
