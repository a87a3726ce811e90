// CryptoKit on Linux: swift-crypto's `Crypto`, which is Apple's CryptoKit API, and the `SecureEnclave`
// keys Coffer's keychain keeps.
@_exported import Crypto
