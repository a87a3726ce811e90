import Crypto
import Foundation
import SyncFormat

/// The recovery key printed once when an account is set up: it stands for a device of its own in the account's log,
/// so a person with no trusted machine left can join again. It holds a 16-byte secret (from which that device's keys
/// derive), the first 16 bytes of the account's anchor (so a server cannot offer another account in its place), and a
/// 3-byte checksum, written in Crockford's base32 as 14 groups of 4.
public struct RecoveryKey: Sendable {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    let secret: SymmetricKey
    let anchorPrefix: Data

    /// A new key for the account whose anchor is `anchor`.
    init(anchor: Data) {
        secret = SymmetricKey(size: SymmetricKeySize(bitCount: 128))
        anchorPrefix = anchor.prefix(16)
    }

    /// The key a person typed; case, spaces and dashes do not matter, and `O`, `I`, `L` read as `0`, `1`, `1`.
    public init(text: String) throws(SyncError) {
        var bits = 0
        var value = 0
        var bytes: [UInt8] = []
        for character in text.uppercased() where !" -\t\n".contains(character) {
            let normalised: Character = character == "O" ? "0" : (character == "I" || character == "L") ? "1" : character
            guard let digit = Self.alphabet.firstIndex(of: normalised) else {
                throw .invalidCode("a recovery key holds letters and digits only, not \(character)")
            }
            value = (value << 5 | digit) & 0xffff
            bits += 5
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((value >> bits) & 0xff))
            }
        }
        guard bytes.count == 35 else { throw .invalidCode("a recovery key is 56 characters long") }
        guard Data(SHA256.hash(data: bytes.prefix(32))).prefix(3) == Data(bytes.suffix(3)) else {
            throw .invalidCode("this recovery key has a typo (its checksum does not match)")
        }
        secret = SymmetricKey(data: bytes.prefix(16))
        anchorPrefix = Data(bytes[16..<32])
    }

    /// The key as people write it.
    public var text: String {
        var bytes = secret.withUnsafeBytes { Data($0) } + anchorPrefix
        bytes += Data(SHA256.hash(data: bytes)).prefix(3)
        defer { bytes.resetBytes(in: 0..<bytes.count) }
        var characters: [Character] = []
        var value = 0
        var bits = 0
        for byte in bytes {
            value = (value << 8 | Int(byte)) & 0xffff
            bits += 8
            while bits >= 5 {
                bits -= 5
                characters.append(Self.alphabet[(value >> bits) & 31])
            }
        }
        if bits > 0 { characters.append(Self.alphabet[(value << (5 - bits)) & 31]) }
        return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<min($0 + 4, characters.count)]) }.joined(separator: "-")
    }

    /// Whether `anchor` is the anchor of the account this key belongs to.
    func belongs(to anchor: Data) -> Bool { anchor.prefix(16) == anchorPrefix }

    /// The device the key stands for in the account's log.
    func device() throws -> DeviceIdentity {
        let seed = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("coffer-sync-recovery-seed-v1".utf8), outputByteCount: 32)
        let idBytes = Array(
            HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("coffer-sync-recovery-id-v1".utf8), outputByteCount: 16)
                .withUnsafeBytes { Data($0) })
        let id = UUID(
            uuid: (
                idBytes[0], idBytes[1], idBytes[2], idBytes[3], idBytes[4], idBytes[5], (idBytes[6] & 0x0f) | 0x80, idBytes[7],
                (idBytes[8] & 0x3f) | 0x80, idBytes[9], idBytes[10], idBytes[11], idBytes[12], idBytes[13], idBytes[14], idBytes[15]
            ))
        return try DeviceIdentity(seed: seed, id: id, name: Self.deviceName)
    }

    /// The name of the recovery key's device in the log.
    public static let deviceName = "recovery key"
}
