import Foundation

/// The order of encoded keys in a canonical dictionary: byte by byte, a prefix before any longer run
/// that starts with it (what `lexicographicallyPrecedes` gives), compared without iterators.
enum WireOrder {
    /// Whether `first` sorts strictly before `second`.
    static func precedes(_ first: UnsafeRawBufferPointer, _ second: UnsafeRawBufferPointer) -> Bool {
        let common = min(first.count, second.count)
        if common > 0, let left = first.baseAddress, let right = second.baseAddress {
            let compared = memcmp(left, right, common)
            if compared != 0 { return compared < 0 }
        }
        return first.count < second.count
    }

    /// Whether `first` sorts strictly before `second`.
    static func precedes(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        first.withUnsafeBytes { left in second.withUnsafeBytes { right in precedes(left, right) } }
    }
}
