import Crypto
import CryptoExtras
import Foundation

/// A hash a PKCS#12 MAC, the PKCS#12 KDF or PBKDF2 may use, on swift-crypto.
enum PKCS12Digest: Sendable {
    case sha1, sha256, sha384, sha512

    /// The digest's length in bytes (u in RFC 7292 appendix B).
    var outputSize: Int {
        switch self {
        case .sha1: Insecure.SHA1.byteCount
        case .sha256: SHA256.byteCount
        case .sha384: SHA384.byteCount
        case .sha512: SHA512.byteCount
        }
    }

    /// The hash's block length in bytes (v in RFC 7292 appendix B).
    var blockSize: Int {
        switch self {
        case .sha1: Insecure.SHA1.blockByteCount
        case .sha256: SHA256.blockByteCount
        case .sha384: SHA384.blockByteCount
        case .sha512: SHA512.blockByteCount
        }
    }

    /// The hash of `bytes`.
    func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        switch self {
        case .sha1: Array(Insecure.SHA1.hash(data: bytes))
        case .sha256: Array(SHA256.hash(data: bytes))
        case .sha384: Array(SHA384.hash(data: bytes))
        case .sha512: Array(SHA512.hash(data: bytes))
        }
    }

    /// Whether `code` is the HMAC of `message` under `key`, compared in constant time.
    func isValidHMAC(_ code: ArraySlice<UInt8>, of message: ArraySlice<UInt8>, key: SymmetricKey) -> Bool {
        switch self {
        case .sha1: HMAC<Insecure.SHA1>.isValidAuthenticationCode(code, authenticating: message, using: key)
        case .sha256: HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: message, using: key)
        case .sha384: HMAC<SHA384>.isValidAuthenticationCode(code, authenticating: message, using: key)
        case .sha512: HMAC<SHA512>.isValidAuthenticationCode(code, authenticating: message, using: key)
        }
    }

    /// swift-crypto's PBKDF2 hash of the same name.
    var pbkdf2Hash: KDF.Insecure.PBKDF2.HashFunction {
        switch self {
        case .sha1: .insecureSHA1
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }
}
