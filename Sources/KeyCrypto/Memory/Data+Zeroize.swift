import CCofferSystem
import Foundation

extension Data {
    /// Overwrites the bytes with zeros, in a way the compiler keeps. Use it on a value this code made or was
    /// handed fresh (a key's DER, a decrypted session key): a buffer shared with another value is copied
    /// first, and only the copy is cleared.
    mutating func zeroize() {
        withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { coffer_secure_zero(base, bytes.count) }
        }
    }
}
