import CCofferSystem
import Crypto
import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

/// The item format: sealing, blind indexes, uniqueness digest and row tag.
///
/// **Sealed blobs** (`attrs`, `secret` columns): `version (1) ‖ nonce (12) ‖ ciphertext ‖ GCM tag (16)`,
/// AES-256-GCM. The plaintext is `u32be length ‖ bytes ‖ zero padding` to a multiple of
/// ``paddingModulus`` (the secret's first plaintext byte also says whether a secret exists), so the row
/// shows neither the exact length of a password nor whether the item has one.
/// - attributes: key = `metadataKey(protection)`, AAD = ``aad(_:version:itemClass:protection:persistentRef:)``
///   with label `attributes`;
/// - secret: key = a random 256-bit item key (wrapped by the keyring into `wkey`), AAD with label `secret`.
///
/// The AAD binds the format version, the item class, the protection class and the persistent reference,
/// so a blob moved to another row (another persistent ref), another table or another class fails to open.
///
/// **Blind indexes**: `HMAC-SHA256(indexKey, "coffer.index" 0x00 ‖ version ‖ class ‖ lp(code) ‖ lp(bytes))`
/// truncated to 16 bytes. Domain separation by class and code means equal values in two attributes or two
/// tables give unrelated columns. 128 bits keep collisions (a false match) negligible — 2⁻⁶⁴ only after
/// 2⁶⁴ distinct values — while halving the size of the many index columns and their B-trees.
///
/// **Uniqueness digest** (`ukey`): the same construction over the engine's uniqueness bytes, untruncated
/// (32 bytes): one column, and a collision would be a false `errSecDuplicateItem`.
///
/// **Row tag** (`tag`): `HMAC-SHA256(indexKey, "coffer.row" 0x00 ‖ version ‖ class ‖ keyclass ‖ pref ‖
/// lp(ukey) ‖ lp(wkey) ‖ lp(attrs) ‖ lp(secret) ‖ lp(code) ‖ lp(index) for each non-NULL index column)`.
/// Checked before any decryption, it makes every change to a row — including a flipped wrapped key, which
/// the keyring could not tell from a lock error, and rewritten index columns, which would let a row match
/// another access group's query — an ``ItemStoreError/corrupt(rowID:)``. `lp` = `u32be length ‖ bytes`.
enum ItemCrypto {
    /// The format version written today.
    static let formatVersion: UInt8 = 1
    /// Plaintexts are padded to a multiple of this many bytes.
    static let paddingModulus = 32
    /// Length of a blind-index column.
    static let indexLength = 16
    /// Length of a persistent reference.
    static let persistentRefLength = 16
    private static let nonceLength = 12
    private static let gcmTagLength = 16

    /// Which sealed part an AAD is for.
    enum Label: UInt8 {
        case attributes = 1
        case secret = 2
    }

    // MARK: Persistent references

    /// 16 random bytes from the system CSPRNG (`getrandom` on Linux).
    static func randomPersistentRef() -> Data {
        Data(randomBytes(persistentRefLength))
    }

    /// `count` bytes from the system CSPRNG in one `getrandom` call (the standard library's generator makes one
    /// call per 8 bytes: a sealed row's key and nonces took ten). The caller zeroizes key material.
    static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let filled = bytes.withUnsafeMutableBytes { coffer_random_bytes($0.baseAddress, $0.count) == 0 }
        if !filled {
            // getrandom fails only for a bad buffer or flags; the standard library's generator is the fallback.
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return bytes
    }

    // MARK: Sealing

    /// The additional authenticated data of a sealed part.
    static func aad(
        _ label: Label, version: UInt8, itemClass: ItemClass, protection: ProtectionClass, persistentRef: Data
    ) -> [UInt8] {
        var aad: [UInt8] = []
        aad.reserveCapacity(40)
        aad.append(contentsOf: "coffer.item".utf8)
        aad.append(0)
        aad.append(label.rawValue)
        aad.append(version)
        aad.append(contentsOf: itemClass.rawValue.utf8.prefix(4))  // class strings are 4 ASCII bytes
        aad.append(UInt8(protection.keyclassNumber))
        persistentRef.withUnsafeBytes { aad.append(contentsOf: $0) }
        return aad
    }

    /// Seals `payload`, padded, under `key` with a fresh random `nonce` and `aad`. `withPresenceByte` (secrets) records whether a payload
    /// exists at all, so that `nil` and empty data stay apart.
    static func seal(_ payload: Data?, key: SymmetricKey, nonce: AES.GCM.Nonce, aad: [UInt8], withPresenceByte: Bool) throws -> Data {
        var plain = pad(payload, withPresenceByte: withPresenceByte)
        defer { plain.zeroize() }
        let box = try AES.GCM.seal(plain, using: key, nonce: nonce, authenticating: aad)
        guard let combined = box.combined else { throw ItemStoreError.invalidArgument("GCM nonce size") }
        var blob = Data(capacity: 1 + combined.count)
        blob.append(formatVersion)
        blob.append(combined)
        return blob
    }

    /// Opens a blob sealed by ``seal(_:key:nonce:aad:withPresenceByte:)``: the payload, or `nil` for an absent
    /// secret. Throws ``ItemStoreError/corrupt(rowID:)`` when authentication fails or the plaintext is malformed.
    static func open(
        _ blob: Data, key: SymmetricKey, aad: [UInt8], withPresenceByte: Bool, rowID: Int64
    ) throws(ItemStoreError) -> Data? {
        guard blob.count >= 1 + nonceLength + gcmTagLength,
            let box = try? AES.GCM.SealedBox(combined: blob.dropFirst()),
            var plain = try? AES.GCM.open(box, using: key, authenticating: aad)
        else { throw .corrupt(rowID: rowID) }
        defer { plain.zeroize() }
        guard let payload = unpad(plain, withPresenceByte: withPresenceByte) else { throw .corrupt(rowID: rowID) }
        return payload
    }

    /// The blob's format version, if it is one this code reads.
    static func version(of blob: Data) -> UInt8? {
        guard let first = blob.first, first == formatVersion else { return nil }
        return first
    }

    private static func pad(_ payload: Data?, withPresenceByte: Bool) -> Data {
        let body = payload ?? Data()
        let header = (withPresenceByte ? 1 : 0) + 4
        let used = header + body.count
        let total = (used + paddingModulus - 1) / paddingModulus * paddingModulus
        var plain = Data(capacity: total)
        if withPresenceByte { plain.append(payload == nil ? 0 : 1) }
        appendLength(body.count, to: &plain)
        plain.append(body)
        plain.append(Data(count: total - used))
        return plain
    }

    /// The payload of a padded plaintext: `.some(nil)` = absent secret, `nil` = malformed.
    private static func unpad(_ plain: Data, withPresenceByte: Bool) -> Data?? {
        plain.withUnsafeBytes { raw -> Data?? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var offset = 0
            var present = true
            if withPresenceByte {
                guard bytes.count >= 1, bytes[0] <= 1 else { return nil }
                present = bytes[0] == 1
                offset = 1
            }
            guard bytes.count % paddingModulus == 0, bytes.count >= offset + 4 else { return nil }
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            offset += 4
            guard length <= bytes.count - offset, bytes[(offset + length)...].allSatisfy({ $0 == 0 }) else { return nil }
            if !present { return length == 0 ? .some(nil) : nil }
            return .some(Data(UnsafeBufferPointer(rebasing: bytes[offset..<offset + length])))
        }
    }

    // MARK: Helpers

    static func lengthPrefixed(_ bytes: Data) -> Data {
        var out = Data(capacity: 4 + bytes.count)
        appendLength(bytes.count, to: &out)
        out.append(bytes)
        return out
    }

    private static func appendLength(_ length: Int, to data: inout Data) {
        let value = UInt32(truncatingIfNeeded: length)
        data.append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
