import CCofferSystem
import Foundation

extension UnsafeMutableRawBufferPointer {
    /// Overwrites the bytes with zeros through a call the optimiser cannot drop (`explicit_bzero`), even when
    /// nothing reads them afterwards.
    public func zeroize() {
        if let base = baseAddress, count > 0 { coffer_secure_zero(base, count) }
    }
}

extension Data {
    /// Overwrites the bytes with zeros, in a way the compiler keeps. Call it on bytes this code owns (a key's
    /// DER, a decrypted secret, a request frame): storage shared with another value is copied first, and only
    /// the copy is cleared.
    public mutating func zeroize() {
        withUnsafeMutableBytes { $0.zeroize() }
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros, in a way the compiler keeps (buffers derived from a passphrase, or holding
    /// key bytes). Storage shared with another value is copied first, and only the copy is cleared.
    public mutating func zeroize() {
        withUnsafeMutableBytes { $0.zeroize() }
    }
}
