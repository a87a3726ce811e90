import Crypto
import Foundation

/// The running value of the journal's hash chain: each record's is the HMAC, under the chaining key, of the one
/// before it, the record's sequence number and its sealed bytes. Removing, changing or reordering a record breaks
/// every value after it; without the key, no one can make them agree again.
struct ChainValue: Sendable, Hashable {
    static let size = 32
    let bytes: [UInt8]

    /// The value before the first record of a new journal.
    static let origin = ChainValue(bytes: Array(repeating: 0, count: size))

    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.size)
        self.bytes = bytes
    }

    /// The value after the record `sealed` with `sequence`.
    func next(sequence: UInt64, sealed: [UInt8], key: SymmetricKey) -> ChainValue {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Array("coffer audit chain v1".utf8) + [0])
        hmac.update(data: bytes)
        hmac.update(data: BigEndian.bytes(sequence))
        hmac.update(data: sealed)
        return ChainValue(bytes: Array(hmac.finalize()))
    }

    /// A MAC of `fields` under the chaining key, with `purpose` so that no two kinds of field can stand for each
    /// other (a segment's header, the journal's head).
    static func tag(_ purpose: String, _ fields: [UInt8], key: SymmetricKey) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: key)
        hmac.update(data: Array(purpose.utf8) + [0])
        hmac.update(data: fields)
        return Array(hmac.finalize())
    }
}

/// Big-endian integers as bytes and back.
enum BigEndian {
    static func bytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
    static func bytes(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func uint64(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
    static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32 { bytes.reduce(0) { $0 << 8 | UInt32($1) } }
}
