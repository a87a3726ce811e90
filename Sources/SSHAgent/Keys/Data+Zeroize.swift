import CCofferSystem
import Foundation

extension Data {
    /// Overwrites the bytes with zeros, in a way the compiler keeps (a buffer shared with another value is
    /// copied first, and only the copy is cleared: call it on bytes this code owns).
    mutating func zeroize() {
        withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { coffer_secure_zero(base, bytes.count) }
        }
    }
}
