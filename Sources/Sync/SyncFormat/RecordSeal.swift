import Crypto
import Foundation

/// How a record's content travels: sealed under an item key of its own, that key wrapped by the zone key, the seal's
/// associated data binding the record's place (``RecordPlace``) and the zone key's version.
///
/// Layout: `CSR1` (4 bytes), the zone key's version (8, big-endian), the wrapped item key (40, AES key wrap), the
/// AES-256-GCM nonce (12), the ciphertext and its tag (16). The server sees the length and nothing else of the
/// content.
public enum RecordSeal {
    private static let magic = Data("CSR1".utf8)
    private static let headerSize = 4 + 8 + 40 + 12
    private static let tagSize = 16

    /// `content` sealed for `place` under `zoneKey`.
    public static func seal(_ content: Data, at place: RecordPlace, with zoneKey: ZoneKey) throws -> Data {
        let itemKey = SymmetricKey(size: .bits256)
        let wrapped = try AES.KeyWrap.wrap(itemKey, using: zoneKey.key)
        let box = try AES.GCM.seal(content, using: itemKey, authenticating: place.associatedData(keyVersion: zoneKey.version))
        var sealed = magic
        withUnsafeBytes(of: zoneKey.version.bigEndian) { sealed.append(contentsOf: $0) }
        sealed.append(wrapped)
        sealed.append(contentsOf: box.nonce)
        sealed.append(box.ciphertext)
        sealed.append(box.tag)
        return sealed
    }

    /// The zone key version `sealed` names, or ``SealedRecordError/malformed``.
    public static func keyVersion(of sealed: Data) throws(SealedRecordError) -> Int64 {
        let bytes = [UInt8](sealed)
        guard bytes.count >= headerSize + tagSize, bytes.prefix(4).elementsEqual(magic) else { throw .malformed }
        return bytes[4..<12].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }

    /// The content of `sealed`, if it was sealed for exactly `place` under one of `zoneKeys` (by version).
    public static func open(_ sealed: Data, at place: RecordPlace, zoneKeys: [Int64: ZoneKey]) throws(SealedRecordError) -> Data {
        let version = try keyVersion(of: sealed)
        guard let zoneKey = zoneKeys[version] else { throw .unknownKeyVersion(version) }
        let bytes = [UInt8](sealed)
        do {
            let itemKey = try AES.KeyWrap.unwrap(bytes[12..<52], using: zoneKey.key)
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: bytes[52..<64]), ciphertext: bytes[64..<(bytes.count - tagSize)], tag: bytes.suffix(tagSize))
            return try AES.GCM.open(box, using: itemKey, authenticating: place.associatedData(keyVersion: version))
        } catch {
            throw .tampered
        }
    }
}
