import Foundation

extension NSData {
    /// The bytes, copied into a `Data` of its own. `Data(referencing:)` keeps the `NSData` behind it, and
    /// swift-crypto's hashing then reads it region by region through Foundation's bridging, which cost more
    /// than the P-256 signature itself (BENCHMARKS.md, keys); a copy is read in one contiguous pass.
    var contiguousData: Data { Data(bytes: bytes, count: length) }
}
