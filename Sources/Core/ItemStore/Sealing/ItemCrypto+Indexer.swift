import Crypto
import Foundation
import KeychainModel

extension ItemCrypto {
    /// Computes blind indexes, uniqueness digests and row tags.
    ///
    /// Holds one ``HMACStart`` per domain, keyed and with the domain header already absorbed, so neither the
    /// key schedule nor the header is hashed again per call. ``IndexerCache`` keeps one per class for a
    /// store's life.
    struct Indexer: Sendable {
        private let indexStart: HMACStart
        private let uniqueStart: HMACStart
        private let rowStart: HMACStart

        init(indexKey: SymmetricKey, itemClass: ItemClass) {
            func start(_ domain: String) -> HMACStart {
                var header = Array(domain.utf8)
                header.append(0)
                header.append(formatVersion)
                header.append(contentsOf: itemClass.rawValue.utf8.prefix(4))
                return HMACStart(key: indexKey, prefix: header)
            }
            indexStart = start("coffer.index")
            uniqueStart = start("coffer.ukey")
            rowStart = start("coffer.row")
        }

        /// The blind index of an attribute's canonical bytes.
        func index(code: String, value: Data) -> Data {
            var message: [UInt8] = []
            message.reserveCapacity(8 + code.utf8.count + value.count)
            Self.appendLengthPrefixed(code, to: &message)
            Self.appendLengthPrefixed(value, to: &message)
            return Self.mac(indexStart, of: message, count: indexLength)
        }

        /// The uniqueness digest of the engine's uniqueness bytes.
        func uniqueDigest(_ uniqueKey: Data) -> Data {
            var message: [UInt8] = []
            message.reserveCapacity(4 + uniqueKey.count)
            Self.appendLengthPrefixed(uniqueKey, to: &message)
            return Self.mac(uniqueStart, of: message, count: SHA256.byteCount)
        }

        /// The row tag over a row's identity, sealed parts and non-NULL index columns.
        func rowTag(protection: ProtectionClass, persistentRef: Data, sealed: SealedRow, codes: [String]) -> Data {
            var message = RowTagMessage(capacity: 64 + sealed.attributes.count + sealed.secret.count + sealed.indexes.count * 40)
            message.start(protection: protection)
            for part in [persistentRef, sealed.uniqueDigest, sealed.wrappedKey, sealed.attributes, sealed.secret] {
                part.withUnsafeBytes { message.appendPart($0) }
            }
            for (code, value) in zip(codes, sealed.indexes) {
                guard let value else { continue }
                value.withUnsafeBytes { message.appendIndex(code: RowTagMessage.lengthPrefixed(code), value: $0) }
            }
            return rowTag(of: message)
        }

        /// The row tag of a message built by the caller.
        func rowTag(of message: RowTagMessage) -> Data {
            Self.mac(rowStart, of: message.bytes, count: SHA256.byteCount)
        }

        /// Whether `stored` is the tag of `message` (constant-time comparison).
        func isTag(_ stored: UnsafeRawBufferPointer, of message: RowTagMessage) -> Bool {
            message.bytes.withUnsafeBytes { bytes in
                rowStart.withMAC(of: bytes) { computed in
                    guard computed.count == stored.count else { return false }
                    var difference: UInt8 = 0
                    for index in 0..<computed.count { difference |= computed[index] ^ stored[index] }
                    return difference == 0
                }
            }
        }

        /// The first `count` bytes of the MAC of `message` from `start`.
        private static func mac(_ start: HMACStart, of message: [UInt8], count: Int) -> Data {
            message.withUnsafeBytes { bytes in
                start.withMAC(of: bytes) { Data(bytes: $0.baseAddress!, count: min(count, $0.count)) }
            }
        }

        /// Appends `lp(text)`: its UTF-8 length as u32be, then its UTF-8 bytes.
        static func appendLengthPrefixed(_ text: String, to message: inout [UInt8]) {
            appendLength(text.utf8.count, to: &message)
            message.append(contentsOf: text.utf8)
        }

        private static func appendLengthPrefixed(_ bytes: Data, to message: inout [UInt8]) {
            appendLength(bytes.count, to: &message)
            bytes.withUnsafeBytes { message.append(contentsOf: $0) }
        }

        /// Appends `count` as u32be, the length prefix of every MAC message field.
        static func appendLength(_ count: Int, to message: inout [UInt8]) {
            let length = UInt32(truncatingIfNeeded: count)
            message.append(UInt8(length >> 24))
            message.append(UInt8(length >> 16 & 0xFF))
            message.append(UInt8(length >> 8 & 0xFF))
            message.append(UInt8(length & 0xFF))
        }
    }
}
