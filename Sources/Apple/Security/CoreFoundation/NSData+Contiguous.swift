import Foundation

extension NSData {
    /// The bytes, copied into a `Data` of its own. `Data(referencing:)` keeps the `NSData` behind it, and
    /// swift-crypto's hashing then reads it through Foundation's bridging, which cost a P-256 `SecKeyCreateSignature`
    /// about a third of its time (BENCHMARKS.md, keys); a copy is read in one contiguous pass.
    var contiguousData: Data { Data(bytes: bytes, count: length) }
}
