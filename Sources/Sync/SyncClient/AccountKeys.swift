import Crypto
import Foundation
import SyncFormat

/// The account's keys, by version: every trusted device holds them (through key shares) and derives from them the
/// zones' names and keys. Version 1 names the zones for good; the newest version seals what is written now; older
/// versions open older records. A new version is made when a device is removed.
public struct AccountKeys: Sendable {
    /// Where the account keys' shares live on the server: a zone that holds no records.
    public static let shareZone = UUID(uuid: (0, 0, 0, 0, 0, 0, 0x80, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))

    /// The keys by version.
    public private(set) var versions: [Int64: SymmetricKey]

    /// Keys at these versions; version 1 must be among them.
    public init(versions: [Int64: SymmetricKey]) throws(SyncError) {
        guard versions[1] != nil, versions.values.allSatisfy({ $0.bitCount == 256 }) else {
            throw .damaged("the account keys are incomplete")
        }
        self.versions = versions
    }

    /// A new account's first key.
    public static func new() -> AccountKeys {
        AccountKeys(unchecked: [1: SymmetricKey(size: .bits256)])
    }

    private init(unchecked versions: [Int64: SymmetricKey]) { self.versions = versions }

    /// The newest version.
    public var current: Int64 { versions.keys.max() ?? 1 }

    /// Adds a new version (a device was removed) and returns it.
    public mutating func rotate() -> Int64 {
        let next = current + 1
        versions[next] = SymmetricKey(size: .bits256)
        return next
    }

    /// Adds a version received in a key share.
    public mutating func add(_ key: ZoneKey) {
        key.withUnsafeBytes { versions[key.version] = SymmetricKey(data: $0) }
    }

    /// The key at `version`, for sealing it to a device.
    public func shareable(_ version: Int64) -> ZoneKey? {
        versions[version].map { ZoneKey(version: version, key: $0) }
    }

    /// The zone of `accessGroup`: the server sees this id and never the group's name. Keyed by version 1, so the id
    /// stays when the keys rotate.
    public func zone(forAccessGroup accessGroup: String) -> UUID {
        let first = versions[1]!
        let naming = HKDF<SHA256>.deriveKey(inputKeyMaterial: first, info: Data("coffer-sync-zone-names-v1".utf8), outputByteCount: 32)
        var bytes = Array(HMAC<SHA256>.authenticationCode(for: Data(accessGroup.utf8), using: naming).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x80  // RFC 9562 version 8 (custom)
        bytes[8] = (bytes[8] & 0x3f) | 0x80  // variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10], bytes[11],
                bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The keys of `zone` at every version: each derived from the account key of that version and the zone's id.
    public func zoneKeys(_ zone: UUID) -> [Int64: ZoneKey] {
        versions.mapValues { key in
            let salt = withUnsafeBytes(of: zone.uuid) { Data($0) }
            return HKDF<SHA256>.deriveKey(inputKeyMaterial: key, salt: salt, info: Data("coffer-sync-zone-key-v1".utf8), outputByteCount: 32)
        }.reduce(into: [:]) { keys, pair in keys[pair.key] = ZoneKey(version: pair.key, key: pair.value) }
    }

    /// The keys' encoding, for the keystore to seal: per version, 8 bytes of version then 32 of key.
    public func withEncoding<T>(_ body: (Data) throws -> T) rethrows -> T {
        var encoded = Data()
        for version in versions.keys.sorted() {
            withUnsafeBytes(of: version.bigEndian) { encoded.append(contentsOf: $0) }
            versions[version]!.withUnsafeBytes { encoded.append(contentsOf: $0) }
        }
        defer { encoded.resetBytes(in: 0..<encoded.count) }
        return try body(encoded)
    }

    /// The keys from their encoding.
    public init(encoding: UnsafeRawBufferPointer) throws(SyncError) {
        guard encoding.count % 40 == 0, !encoding.isEmpty else { throw .damaged("the account keys are damaged") }
        var versions: [Int64: SymmetricKey] = [:]
        for start in stride(from: 0, to: encoding.count, by: 40) {
            let version = encoding[start..<(start + 8)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            versions[version] = SymmetricKey(data: UnsafeRawBufferPointer(rebasing: encoding[(start + 8)..<(start + 40)]))
        }
        try self.init(versions: versions)
    }
}
