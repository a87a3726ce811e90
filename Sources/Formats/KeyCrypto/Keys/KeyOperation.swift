/// An operation a key performs with an algorithm (Apple's `SecKeyOperationType`).
public enum KeyOperation: Sendable, Hashable {
    /// `kSecKeyOperationTypeSign`: a private key signs.
    case sign
    /// `kSecKeyOperationTypeVerify`: a public key checks a signature.
    case verify
    /// `kSecKeyOperationTypeEncrypt`: a public key encrypts.
    case encrypt
    /// `kSecKeyOperationTypeDecrypt`: a private key decrypts.
    case decrypt
    /// `kSecKeyOperationTypeKeyExchange`: a private key agrees on a secret with a peer's public key.
    case keyExchange
}
