import Crypto
import Foundation

/// What the rest of an account knows of a device: its id, its name, the public halves of its signing keys (P-256 and
/// ML-DSA-65) and of its key-agreement key (X-Wing: ML-KEM-768 and X25519), which zone keys are shared to.
public struct DevicePublicIdentity: Sendable, Equatable {
    /// The device's random id.
    public let id: UUID
    /// The device's name, as its owner sees it in `coffer sync devices`.
    public let name: String
    let signingP256: P256.Signing.PublicKey
    let signingMLDSA: MLDSA65.PublicKey
    let agreement: XWingMLKEM768X25519.PublicKey

    public static func == (left: DevicePublicIdentity, right: DevicePublicIdentity) -> Bool {
        left.encoded == right.encoded
    }

    /// Whether `signature` is this device's signature of `message` in `context`.
    public func isValidSignature(_ signature: Data, of message: Data, context: String) -> Bool {
        HybridSignature.isValid(signature, of: message, context: context, p256: signingP256, mldsa: signingMLDSA)
    }

    /// The canonical encoding: the id (16 bytes), then the name, the P-256 key (compressed), the ML-DSA-65 key and the
    /// X-Wing key, each with its length (2 bytes, big-endian).
    public var encoded: Data {
        var data = Data()
        withUnsafeBytes(of: id.uuid) { data.append(contentsOf: $0) }
        for field in [Data(name.utf8), signingP256.compressedRepresentation, signingMLDSA.rawRepresentation, agreement.rawRepresentation] {
            data.append(UInt8(field.count >> 8))
            data.append(UInt8(field.count & 0xFF))
            data.append(field)
        }
        return data
    }

    /// An identity from its canonical encoding, or ``DeviceIdentityError/malformed``.
    public init(encoded: Data) throws(DeviceIdentityError) {
        var reader = FieldReader(encoded)
        guard let id = reader.bytes(16) else { throw .malformed }
        var fields: [Data] = []
        for _ in 0..<4 {
            guard let field = reader.lengthPrefixed() else { throw .malformed }
            fields.append(field)
        }
        guard reader.isAtEnd, let name = String(data: fields[0], encoding: .utf8), !name.isEmpty else { throw .malformed }
        do {
            self.init(
                id: UUID(uuid: id.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }), name: name,
                signingP256: try P256.Signing.PublicKey(compressedRepresentation: fields[1]),
                signingMLDSA: try MLDSA65.PublicKey(rawRepresentation: fields[2]),
                agreement: try XWingMLKEM768X25519.PublicKey(rawRepresentation: fields[3]))
        } catch {
            throw .malformed
        }
    }

    init(id: UUID, name: String, signingP256: P256.Signing.PublicKey, signingMLDSA: MLDSA65.PublicKey, agreement: XWingMLKEM768X25519.PublicKey) {
        self.id = id
        self.name = name
        self.signingP256 = signingP256
        self.signingMLDSA = signingMLDSA
        self.agreement = agreement
    }
}

/// Why a device identity or something it signed was refused.
public enum DeviceIdentityError: Error, Equatable, Sendable {
    /// Not an encoding of this format.
    case malformed
}

/// Reads fixed and length-prefixed fields from a buffer, never past its end.
struct FieldReader {
    private let bytes: [UInt8]
    private var offset = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func bytes(_ count: Int) -> Data? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Data(bytes[offset..<(offset + count)])
    }

    mutating func lengthPrefixed() -> Data? {
        guard let length = bytes(2) else { return nil }
        return bytes(Int(length[length.startIndex]) << 8 | Int(length[length.startIndex + 1]))
    }
}
