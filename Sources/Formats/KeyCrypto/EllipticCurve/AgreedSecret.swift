import Crypto
import Foundation
import KeychainModel

/// The ECDH shared secret (the x coordinate): swift-crypto's for a software key, raw bytes for a held key.
enum AgreedSecret {
    case computed(SharedSecret)
    case held(SecretBytes)

    /// The secret's bytes.
    var bytes: Data {
        switch self {
        case .computed(let secret): secret.withUnsafeBytes { Data($0) }
        case .held(let secret): secret.withUnsafeBytes { Data($0) }
        }
    }

    /// The ANSI X9.63 KDF with `digest` over the secret.
    func x963DerivedKey(_ digest: DigestAlgorithm, sharedInfo: Data, byteCount: Int) -> SymmetricKey {
        switch self {
        case .computed(let secret): digest.x963DerivedKey(from: secret, sharedInfo: sharedInfo, byteCount: byteCount)
        case .held(let secret): secret.withUnsafeBytes { digest.x963DerivedKey(fromBytes: $0, sharedInfo: sharedInfo, byteCount: byteCount) }
        }
    }
}
