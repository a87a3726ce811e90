import Crypto
import Foundation

/// A zone key sealed to one device: HPKE (RFC 9180, base mode) with X-Wing (ML-KEM-768 and X25519), HKDF-SHA256 and
/// AES-256-GCM, its info binding the zone, the key's version and the device, so that a share cannot be replayed for
/// another zone, version or device. Layout: the encapsulated key (1,120 bytes), then the sealed 32-byte key.
public enum KeyShare {
    private static let suite = HPKE.Ciphersuite.XWingMLKEM768X25519_SHA256_AES_GCM_256
    private static let encapsulatedSize = 1120

    /// `key` sealed to `device` for `zone`.
    public static func seal(_ key: ZoneKey, zone: UUID, to device: DevicePublicIdentity) throws -> Data {
        var sender = try HPKE.Sender(recipientKey: device.agreement, ciphersuite: suite, info: info(zone: zone, keyVersion: key.version, device: device.id))
        let sealed = try key.withUnsafeBytes { try sender.seal(Data($0)) }
        return sender.encapsulatedKey + sealed
    }

    static func open(
        _ share: Data, zone: UUID, keyVersion: Int64, device: UUID, with agreement: XWingMLKEM768X25519.PrivateKey
    ) throws(KeyShareError) -> ZoneKey {
        guard share.count == encapsulatedSize + 32 + 16 else { throw .malformed }
        do {
            var recipient = try HPKE.Recipient(
                privateKey: agreement, ciphersuite: suite, info: info(zone: zone, keyVersion: keyVersion, device: device),
                encapsulatedKey: share.prefix(encapsulatedSize))
            let key = try recipient.open(share.suffix(from: share.startIndex + encapsulatedSize))
            return ZoneKey(version: keyVersion, key: SymmetricKey(data: key))
        } catch {
            throw .tampered
        }
    }

    private static func info(zone: UUID, keyVersion: Int64, device: UUID) -> Data {
        var info = Data("coffer-sync-zone-key-v1".utf8)
        withUnsafeBytes(of: zone.uuid) { info.append(contentsOf: $0) }
        withUnsafeBytes(of: keyVersion.bigEndian) { info.append(contentsOf: $0) }
        withUnsafeBytes(of: device.uuid) { info.append(contentsOf: $0) }
        return info
    }
}

/// Why a key share was refused.
public enum KeyShareError: Error, Equatable, Sendable {
    /// Not a key share of this format.
    case malformed
    /// It does not open: sealed to another device, zone or key version, or changed.
    case tampered
}
