import Crypto

/// One record as the journal keeps it: `length (4) ‖ sequence (8) ‖ nonce (12) ‖ ciphertext ‖ tag (16)`. What is
/// sealed with AES-256-GCM is a random head secret (16) and the payload; the additional data is the chain value before
/// the record and its sequence number, so the tag, which is the record's chain value, ties it to every record before
/// it.
struct RecordFrame: Sendable {
    static let fixedSize = 8 + 12 + headSecretSize + 16
    /// The size of the secret each record seals for the head that names it (``JournalHead``).
    static let headSecretSize = 16
    /// The head secret of a journal with no record.
    static let noHeadSecret = [UInt8](repeating: 0, count: headSecretSize)
    /// A frame larger than this is not one the journal wrote.
    static let largest = 64 * 1024

    let sequence: UInt64
    /// nonce ‖ ciphertext ‖ tag.
    let sealed: [UInt8]

    /// The chain value after this record: its tag.
    var chain: ChainValue { ChainValue(bytes: Array(sealed.suffix(ChainValue.size))) }

    /// A record opened: the secret its head holds, and the payload.
    struct Opened {
        let headSecret: [UInt8]
        let payload: [UInt8]
    }

    /// The bytes of record `sequence` after `previous` (``bytes``), holding `headSecret` and `payload` sealed with
    /// `nonce`: through `sealer` straight into the frame when there is one, else with a new AES-GCM context.
    static func frameBytes(
        _ payload: [UInt8], headSecret: [UInt8], nonce: [UInt8], sequence: UInt64, after previous: ChainValue, keys: AuditKeys,
        sealer: RecordSealer?
    ) throws -> [UInt8] {
        let additional = previous.additionalData(sequence: sequence)
        var plaintext = headSecret
        plaintext.append(contentsOf: payload)
        defer { plaintext.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        if let sealer {
            guard let frame = sealer.sealFrame(plaintext, nonce: nonce, additional: additional, sequence: sequence) else {
                throw CryptoKitError.incorrectParameterSize
            }
            return frame
        }
        return try seal(plaintext, nonce: nonce, additional: additional, sequence: sequence, keys: keys).bytes
    }

    /// Seals `plaintext` as record `sequence` with a new AES-GCM context.
    private static func seal(_ plaintext: [UInt8], nonce: [UInt8], additional: [UInt8], sequence: UInt64, keys: AuditKeys) throws -> RecordFrame {
        let gcmNonce = try AES.GCM.Nonce(data: nonce)
        let box = try plaintext.withUnsafeBytes { message in
            try additional.withUnsafeBytes { data in try AES.GCM.seal(message, using: keys.sealing, nonce: gcmNonce, authenticating: data) }
        }
        // A sealed box made with a 12-byte nonce always has its combined form: nonce ‖ ciphertext ‖ tag.
        guard let combined = box.combined else { throw CryptoKitError.incorrectParameterSize }
        return RecordFrame(sequence: sequence, sealed: combined.withUnsafeBytes { Array($0) })
    }

    /// The frame's bytes, length first.
    var bytes: [UInt8] {
        let length = 8 + sealed.count
        var bytes = [UInt8]()
        bytes.reserveCapacity(4 + length)
        bytes.append(contentsOf: BigEndian.bytes(UInt32(length)))
        BigEndian.append(sequence, to: &bytes)
        bytes.append(contentsOf: sealed)
        return bytes
    }

    /// The head secret and the payload, when the frame opens under `keys` as the record after `previous`; nil when
    /// it was changed, or does not follow `previous` (a record removed or moved before it).
    func open(keys: AuditKeys, after previous: ChainValue) -> Opened? {
        guard sealed.count >= 28 + Self.headSecretSize, let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        let additional = previous.additionalData(sequence: sequence)
        guard
            let plaintext = try? additional.withUnsafeBytes({ data in
                try AES.GCM.open(box, using: keys.sealing, authenticating: data).withUnsafeBytes { Array($0) }
            })
        else { return nil }
        return Opened(headSecret: Array(plaintext.prefix(Self.headSecretSize)), payload: Array(plaintext.dropFirst(Self.headSecretSize)))
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
        return .success((RecordFrame(sequence: sequence, sealed: Array(bytes[start + 8..<start + length])), start + length))
    }

    /// Why bytes could not be read as a frame.
    enum FrameDamage: Error {
        case cutShort, badLength
    }
}
