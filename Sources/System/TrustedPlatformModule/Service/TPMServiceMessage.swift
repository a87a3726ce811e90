import Foundation
import KeychainModel

/// One message of cofferd's TPM service (``TPMServiceServer`` in the daemon, ``TPMServiceClient`` here): a kind and
/// its fields.
///
/// On the socket: a UInt32 big-endian length ‖ the kind (one byte) ‖ each field as a UInt16 big-endian length and its
/// bytes. A message is at most ``maximumLength`` bytes. Fields that carry a secret (what is sealed, what is unsealed,
/// an HMAC's input and output, a shared secret) are cleared from the buffers that held them once used.
public struct TPMServiceMessage: Sendable {
    /// What a message asks or answers.
    public enum Kind: UInt8, Sendable {
        /// The storage root key (no fields); answered by ``storageRootKey``.
        case hello = 0x01
        /// Seal (the secret, and for PCRs their mask as 4 bytes big-endian); answered by ``bytes`` (the wrapped object).
        case seal = 0x02
        /// Unseal (the wrapped object, and the PCRs' mask it was sealed with); answered by ``bytes`` (the secret).
        case unseal = 0x03
        /// Make an HMAC key (no fields); answered by ``bytes``.
        case createHMACKey = 0x04
        /// HMAC (the key's wrapped object, the input); answered by ``bytes`` (the MAC).
        case hmac = 0x05
        /// Make an ECC P-256 key (no fields); answered by ``eccKey``.
        case createECCKey = 0x06
        /// Sign (the key's wrapped object, the digest); answered by ``bytes`` (r ‖ s).
        case sign = 0x07
        /// Agree (the key's wrapped object, the peer's point); answered by ``bytes`` (the shared x coordinate).
        case keyAgreement = 0x08
        /// The SRK's x and y.
        case storageRootKey = 0x81
        /// One field of bytes.
        case bytes = 0x82
        /// The wrapped object and the public key (`04 ‖ x ‖ y`).
        case eccKey = 0x83
        /// The TPM's or tpm2-tss's code (4 bytes, big-endian) and a sentence for people.
        case failure = 0xFF
    }

    /// The longest message either side sends or accepts.
    public static let maximumLength = 4096

    /// What this message is.
    public var kind: Kind
    /// Its fields, in order.
    public var fields: [Data]

    /// A message of `kind` with `fields`.
    public init(_ kind: Kind, _ fields: [Data] = []) {
        self.kind = kind
        self.fields = fields
    }

    /// A failure, from a TPM error.
    public init(failure: TPMError) {
        self.init(.failure, [withUnsafeBytes(of: failure.code.bigEndian) { Data($0) }, Data(failure.reason.utf8)])
    }

    /// The TPM error a failure carries, or nil for any other message.
    public var failure: TPMError? {
        guard kind == .failure, fields.count == 2, fields[0].count == 4 else { return nil }
        let code = fields[0].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return TPMError(code: code, reason: String(decoding: fields[1], as: UTF8.self))
    }

    /// The length prefix and the body, ready to send.
    public func framed() -> Data {
        var body = Data([kind.rawValue])
        for field in fields {
            withUnsafeBytes(of: UInt16(field.count).bigEndian) { body.append(contentsOf: $0) }
            body.append(field)
        }
        var frame = withUnsafeBytes(of: UInt32(body.count).bigEndian) { Data($0) }
        frame.append(body)
        body.zeroize()
        return frame
    }

    /// The message `body` holds (the bytes after the length prefix), or nil when it does not parse.
    public static func decode(_ body: Data) -> TPMServiceMessage? {
        guard let first = body.first, let kind = Kind(rawValue: first) else { return nil }
        var fields: [Data] = []
        var offset = body.startIndex + 1
        while offset < body.endIndex {
            guard body.endIndex - offset >= 2 else { return nil }
            let length = Int(body[offset]) << 8 | Int(body[offset + 1])
            offset += 2
            guard body.endIndex - offset >= length else { return nil }
            fields.append(Data(body[offset..<(offset + length)]))
            offset += length
        }
        return TPMServiceMessage(kind, fields)
    }

    /// Clears every field: for messages that carried a secret.
    public mutating func zeroize() {
        for index in fields.indices { fields[index].zeroize() }
    }
}
