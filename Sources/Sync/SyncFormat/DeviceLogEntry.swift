import Crypto
import Foundation

/// One entry of an account's device log: a device added (its public identity) or removed (its id), chained to the
/// entry before by its hash and signed by a device the log already trusts (the first entry by the device it adds,
/// which founds the account).
///
/// Layout: position (8 bytes, big-endian), the previous entry's SHA-256 (32; zeros for the first), the kind (1: add,
/// 2: remove), the subject's length (4) and bytes, the signer's id (16), then the signer's ``HybridSignature`` of
/// everything before it.
public struct DeviceLogEntry: Sendable, Equatable {
    /// What an entry does.
    public enum Change: Sendable, Equatable {
        /// Trusts a new device.
        case add(DevicePublicIdentity)
        /// Stops trusting a device: it reads nothing written after (its zones' keys are replaced).
        case remove(UUID)
    }

    /// The signature context of device log entries.
    static let signatureContext = "coffer-sync-device-log-v1"

    /// The entry's position (1 for the first).
    public let position: Int64
    /// The SHA-256 of the previous entry's encoding (32 zero bytes for the first).
    public let previousHash: Data
    /// What the entry does.
    public let change: Change
    /// The device that signed it.
    public let signer: UUID
    /// The signer's signature of the entry's signed part.
    let signature: Data

    /// A new entry at `position` after the entry whose hash is `previousHash`, signed by `device`.
    public init(position: Int64, previousHash: Data, change: Change, signedBy device: DeviceIdentity) throws {
        self.position = position
        self.previousHash = previousHash
        self.change = change
        signer = device.publicIdentity.id
        signature = try device.signature(for: Self.signedPart(position, previousHash, change, signer), context: Self.signatureContext)
    }

    /// The entry's encoding (what the server stores).
    public var encoded: Data { Self.signedPart(position, previousHash, change, signer) + signature }

    /// The SHA-256 of ``encoded``, which the next entry names.
    public var hash: Data { Data(SHA256.hash(data: encoded)) }

    /// Whether `identity` signed this entry.
    func isSigned(by identity: DevicePublicIdentity) -> Bool {
        identity.id == signer
            && identity.isValidSignature(signature, of: Self.signedPart(position, previousHash, change, signer), context: Self.signatureContext)
    }

    /// An entry from its encoding, or ``DeviceLogError/malformed`` (its signature is checked by ``DeviceLog``).
    public init(encoded: Data) throws(DeviceLogError) {
        var reader = FieldReader(encoded)
        guard let position = reader.bytes(8), let previousHash = reader.bytes(32), let kind = reader.bytes(1),
            let length = reader.bytes(4)
        else { throw .malformed }
        let subjectLength = length.reduce(0) { $0 << 8 | Int($1) }
        guard let subject = reader.bytes(subjectLength), let signer = reader.bytes(16), let signature = reader.bytes(HybridSignature.size),
            reader.isAtEnd
        else { throw .malformed }
        switch kind.first {
        case 1:
            guard let identity = try? DevicePublicIdentity(encoded: subject) else { throw .malformed }
            change = .add(identity)
        case 2:
            guard subject.count == 16 else { throw .malformed }
            change = .remove(Self.uuid(subject))
        default:
            throw .malformed
        }
        self.position = position.reduce(Int64(0)) { $0 << 8 | Int64($1) }
        self.previousHash = previousHash
        self.signer = Self.uuid(signer)
        self.signature = signature
    }

    private static func signedPart(_ position: Int64, _ previousHash: Data, _ change: Change, _ signer: UUID) -> Data {
        var data = Data()
        withUnsafeBytes(of: position.bigEndian) { data.append(contentsOf: $0) }
        data.append(previousHash)
        let subject: Data
        switch change {
        case .add(let identity):
            data.append(1)
            subject = identity.encoded
        case .remove(let device):
            data.append(2)
            subject = withUnsafeBytes(of: device.uuid) { Data($0) }
        }
        withUnsafeBytes(of: UInt32(subject.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(subject)
        withUnsafeBytes(of: signer.uuid) { data.append(contentsOf: $0) }
        return data
    }

    private static func uuid(_ bytes: Data) -> UUID {
        UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
    }
}
