import Crypto
import Foundation

/// The running value of the journal's chain: each record's is its AES-GCM tag, which authenticates, under the sealing
/// key, the record's bytes together with the value before it and the record's sequence number (the seal's additional
/// data). Removing, changing or reordering a record makes the next one fail to open; without the key, no one can make
/// them agree again.
struct ChainValue: Sendable, Hashable {
    static let size = 16
    let bytes: [UInt8]

    /// The value before the first record of a new journal.
    static let origin = ChainValue(bytes: Array(repeating: 0, count: size))

    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.size)
        self.bytes = bytes
    }

    /// The additional data that ties record `sequence` to this value: the value, then the sequence number.
    func additionalData(sequence: UInt64) -> [UInt8] {
        var data = bytes
        BigEndian.append(sequence, to: &data)
        return data
    }

    /// A MAC of `fields` under the chaining key, with `purpose` so that no two kinds of field can stand for each
    /// other (a segment's header, the journal's head).
    static func tag(_ purpose: PurposeMACs.Purpose, _ fields: [UInt8], keys: AuditKeys) -> [UInt8] {
        fields.withUnsafeBytes { keys.macs.mac(purpose, $0) }
    }
}

/// Big-endian integers as bytes and back.
enum BigEndian {
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    static func bytes(_ value: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) } }
    static func bytes(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func uint64(_ bytes: ArraySlice<UInt8>) -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
    static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32 { bytes.reduce(0) { $0 << 8 | UInt32($1) } }
}
