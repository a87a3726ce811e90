import Crypto
import Foundation
import KeychainModel

/// A random 256-bit key that opens a backup instead of a password, printed once for the person to keep.
///
/// Its printed form is 14 groups of 4 characters of base32 (RFC 4648's alphabet) separated by `-`: the 32
/// bytes of the key and 3 bytes of checksum (the first bytes of its SHA-256), so a mistyped key is told
/// apart from a wrong one. Reading ignores case, spaces and dashes.
public struct RecoveryKey: Sendable {
    /// The 32 key bytes.
    public let key: SecretBytes

    static let byteCount = 32
    static let checksumCount = 3
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    /// Characters in the printed form, without separators: (32 + 3) × 8 / 5.
    static let characterCount = 56

    /// A fresh random key.
    public static func generate() -> RecoveryKey {
        var generator = SystemRandomNumberGenerator()
        return RecoveryKey(
            key: SecretBytes(capacity: byteCount) { buffer in
                for index in 0..<byteCount { buffer[index] = UInt8.random(in: 0...255, using: &generator) }
                return byteCount
            })
    }

    /// A key made of these 32 bytes.
    public init(key: SecretBytes) {
        precondition(key.count == Self.byteCount, "a recovery key is 32 bytes")
        self.key = key
    }

    /// The printed form (`ABCD-EFGH-…`, 69 characters), as zeroizing UTF-8 bytes.
    public func formatted() -> SecretBytes {
        let payload = key.withUnsafeBytes { bytes in
            let checksum = SHA256.hash(data: bytes).prefix(Self.checksumCount)
            return SecretBytes(copying: Array(bytes) + Array(checksum))
        }
        let groups = Self.characterCount / 4
        return SecretBytes(capacity: Self.characterCount + groups - 1) { buffer in
            payload.withUnsafeBytes { bytes in
                var written = 0
                var accumulator: UInt32 = 0
                var bits = 0
                var characters = 0
                func emit(_ value: UInt32) {
                    if characters > 0, characters % 4 == 0 {
                        buffer[written] = UInt8(ascii: "-")
                        written += 1
                    }
                    buffer[written] = Self.alphabet[Int(value & 31)]
                    written += 1
                    characters += 1
                }
                for byte in bytes {
                    accumulator = accumulator << 8 | UInt32(byte)
                    bits += 8
                    while bits >= 5 {
                        bits -= 5
                        emit(accumulator >> UInt32(bits))
                    }
                    accumulator &= (1 << UInt32(bits)) - 1
                }
                return written
            }
        }
    }

    /// Reads a printed key; throws when it has the wrong length, a character outside the alphabet, or a
    /// checksum that does not match (a typing mistake).
    public static func parse(_ text: SecretBytes) throws(RecoveryKeyError) -> RecoveryKey {
        var values = [UInt8](repeating: 0, count: characterCount)
        defer { values.zeroize() }
        var count = 0
        try text.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) throws(RecoveryKeyError) in
            for byte in bytes {
                if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                    || byte == UInt8(ascii: "\t")
                {
                    continue
                }
                let upper = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) ? byte - 32 : byte
                guard let value = alphabet.firstIndex(of: upper) else { throw .invalidCharacter }
                guard count < characterCount else { throw .wrongLength }
                values[count] = UInt8(value)
                count += 1
            }
        }
        guard count == characterCount else { throw .wrongLength }
        var payload = [UInt8](repeating: 0, count: byteCount + checksumCount)
        defer { payload.zeroize() }
        var accumulator: UInt32 = 0
        var bits = 0
        var index = 0
        for value in values {
            accumulator = accumulator << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                payload[index] = UInt8(truncatingIfNeeded: accumulator >> UInt32(bits))
                index += 1
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        let key = SecretBytes(copying: payload[0..<byteCount])
        let checksum = key.withUnsafeBytes { SHA256.hash(data: $0).prefix(checksumCount) }
        guard checksum.elementsEqual(payload[byteCount...]) else { throw .checksumMismatch }
        return RecoveryKey(key: key)
    }
}

/// Why a printed recovery key cannot be read.
public enum RecoveryKeyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not 56 characters (14 groups of 4).
    case wrongLength
    /// A character outside A–Z and 2–7.
    case invalidCharacter
    /// The checksum does not match: a character was mistyped.
    case checksumMismatch

    /// A sentence for people.
    public var description: String {
        switch self {
        case .wrongLength: "a recovery key has 14 groups of 4 characters"
        case .invalidCharacter: "a recovery key uses only the letters A to Z and the digits 2 to 7"
        case .checksumMismatch: "the recovery key was mistyped (its checksum does not match)"
        }
    }
}
