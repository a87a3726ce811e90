import Crypto

/// A zone's key at one version: what every trusted device of the account holds for one access group, and what seals
/// the item keys of that zone's records. A new version replaces it when a device is removed; older versions still
/// open older records.
public struct ZoneKey: Sendable {
    /// The key's version (1 for the zone's first key).
    public let version: Int64
    /// The key (AES-256).
    let key: SymmetricKey

    /// A new random key at `version`.
    public init(version: Int64) {
        self.init(version: version, key: SymmetricKey(size: .bits256))
    }

    /// The key at `version` from its 32 bytes (as a device received it in a key share).
    public init(version: Int64, key: SymmetricKey) {
        precondition(key.bitCount == 256, "a zone key is 256 bits")
        self.version = version
        self.key = key
    }

    /// The key's bytes, for sealing it to a device (key shares).
    public func withUnsafeBytes<T>(_ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T { try key.withUnsafeBytes(body) }
}
