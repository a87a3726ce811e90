import Foundation
import KeychainModel

/// A persistent reference (`kSecValuePersistentRef`, §9): a class code followed by the row's identity.
public struct PersistentReference: Sendable, Hashable {
    /// How the reference names its row.
    public enum Identity: Sendable, Hashable {
        /// The current 20-byte form: the row's random 16-byte `persistref` UUID.
        case uuid(UUID)
        /// The legacy 12-byte form: the SQLite rowid, big-endian. Accepted for lookups; -50 on add (A6).
        case legacyRowID(Int64)
    }

    /// The four-character class code the reference starts with (`genp`, `inet`, `cert`, `keys`, `idnt`, `apls`).
    public let classCode: String
    /// The row's identity.
    public let identity: Identity

    /// A current-form reference to an item of `itemClass`.
    public init(itemClass: ItemClass, uuid: UUID) {
        classCode = itemClass.rawValue
        identity = .uuid(uuid)
    }

    /// A legacy-form reference to the row `rowID` of `itemClass`.
    public init(itemClass: ItemClass, legacyRowID rowID: Int64) {
        classCode = itemClass.rawValue
        identity = .legacyRowID(rowID)
    }

    /// Parses the 20-byte UUID form or the 12-byte legacy rowid form; nil for anything else (including
    /// token references, `tkpr…`, which Coffer does not produce) or an unknown class code.
    public init?(data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count == 20 || bytes.count == 12,
            let code = String(bytes: bytes[0..<4], encoding: .ascii),
            Self.validClassCodes.contains(code)
        else { return nil }
        classCode = code
        if bytes.count == 20 {
            let uuidBytes = Array(bytes[4..<20])
            identity = .uuid(
                UUID(
                    uuid: (
                        uuidBytes[0], uuidBytes[1], uuidBytes[2], uuidBytes[3], uuidBytes[4], uuidBytes[5],
                        uuidBytes[6], uuidBytes[7], uuidBytes[8], uuidBytes[9], uuidBytes[10], uuidBytes[11],
                        uuidBytes[12], uuidBytes[13], uuidBytes[14], uuidBytes[15]
                    )))
        } else {
            identity = .legacyRowID(bytes[4..<12].reduce(Int64(0)) { ($0 << 8) | Int64($1) })
        }
    }

    /// The class, or nil for a class Coffer has no table for (`apls` → -25306 when used).
    public var itemClass: ItemClass? { ItemClass(rawValue: classCode) }

    /// The row UUID of a current-form reference.
    public var uuid: UUID? {
        if case .uuid(let value) = identity { return value }
        return nil
    }

    /// Whether this is the legacy rowid form.
    public var isLegacy: Bool {
        if case .legacyRowID = identity { return true }
        return false
    }

    /// The reference's bytes, as returned for `kSecReturnPersistentRef`.
    public var data: Data {
        var bytes = Data(classCode.utf8)
        switch identity {
        case .uuid(let value): bytes.append(contentsOf: withUnsafeBytes(of: value.uuid) { Array($0) })
        case .legacyRowID(let row): bytes.append(contentsOf: withUnsafeBytes(of: row.bigEndian) { Array($0) })
        }
        return bytes
    }

    /// Class strings Apple's persistent-reference parser accepts.
    private static let validClassCodes: Set<String> = ["genp", "inet", "cert", "keys", "idnt", "apls"]
}
