import CCofferSystem

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros in a way the compiler keeps (for buffers derived from the passphrase or
    /// holding key bytes). Call it when no other value shares the storage.
    mutating func zeroize() {
        withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { coffer_secure_zero(base, bytes.count) }
        }
    }
}
