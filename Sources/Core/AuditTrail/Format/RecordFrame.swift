import Crypto

/// One record as the journal keeps it: `length (4) ‖ sequence (8) ‖ nonce (12) ‖ ciphertext ‖ tag (16) ‖ chain (32)`.
/// The payload is sealed with AES-256-GCM, the sequence number as additional data; the chain value covers the
/// sealed bytes and ties the record to every one before it.
struct RecordFrame: Sendable {
    static let fixedSize = 8 + 12 + 16 + ChainValue.size
    /// A frame larger than this is not one the journal wrote.
    static let largest = 64 * 1024

    let sequence: UInt64
    /// nonce ‖ ciphertext ‖ tag.
    let sealed: [UInt8]
    let chain: ChainValue

    /// Seals `payload` as record `sequence` after `previous`.
    static func seal(_ payload: [UInt8], sequence: UInt64, after previous: ChainValue, keys: AuditKeys) throws -> RecordFrame {
        let box = try AES.GCM.seal(payload, using: keys.sealing, authenticating: BigEndian.bytes(sequence))
        let sealed = Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
        return RecordFrame(sequence: sequence, sealed: sealed, chain: previous.next(sequence: sequence, sealed: sealed, key: keys.chaining))
    }

    /// The frame's bytes, length first.
    var bytes: [UInt8] {
        let body = BigEndian.bytes(sequence) + sealed + chain.bytes
        return BigEndian.bytes(UInt32(body.count)) + body
    }

    /// The payload, when the frame opens under `keys`; nil when it was changed.
    func open(keys: AuditKeys) -> [UInt8]? {
        guard sealed.count >= 28, let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? Array(AES.GCM.open(box, using: keys.sealing, authenticating: BigEndian.bytes(sequence)))
    }

    /// Reads the frame at `offset` of `bytes`: the frame and where the next begins; nil at a clean end, a failure
    /// for bytes that cannot be a frame (cut short, a length out of range).
    static func read(_ bytes: [UInt8], at offset: Int) -> Result<(frame: RecordFrame, next: Int), FrameDamage>? {
        guard offset < bytes.count else { return nil }
        guard offset + 4 <= bytes.count else { return .failure(.cutShort) }
        let length = Int(BigEndian.uint32(bytes[offset..<offset + 4]))
        guard length >= fixedSize, length <= largest else { return .failure(.badLength) }
        let start = offset + 4
        guard start + length <= bytes.count else { return .failure(.cutShort) }
        let sequence = BigEndian.uint64(bytes[start..<start + 8])
        let sealed = Array(bytes[start + 8..<start + length - ChainValue.size])
        let chain = ChainValue(bytes: Array(bytes[start + length - ChainValue.size..<start + length]))
        return .success((RecordFrame(sequence: sequence, sealed: sealed, chain: chain), start + length))
    }

    /// Why bytes could not be read as a frame.
    enum FrameDamage: Error {
        case cutShort, badLength
    }
}
