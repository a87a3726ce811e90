import Foundation
import KeychainModel
import Query

/// Typed access to a result dictionary from `SecItemCopyMatching` or `SecItemAdd`.
///
/// Values come back with the CF type they were stored with (§10.10): a blob attribute written as data
/// by another client is read as UTF-8 text here, numbers may be booleans, and so on.
struct AttributeReader {
    let values: [String: KeychainValue]

    func string(_ key: String) -> String? {
        switch values[key] {
        case .string(let text)?: text
        case .data(let bytes)?: String(data: bytes, encoding: .utf8)
        case .number(let number)?: String(number)
        default: nil
        }
    }

    func data(_ key: String) -> Data? {
        switch values[key] {
        case .data(let bytes)?: bytes
        case .string(let text)?: Data(text.utf8)
        default: nil
        }
    }

    func integer(_ key: String) -> Int64? {
        switch values[key] {
        case .number(let number)?: number
        case .bool(let flag)?: flag ? 1 : 0
        case .double(let real)?: Int64(exactly: real.rounded(.towardZero))
        case .string(let text)?: Int64(text)
        default: nil
        }
    }

    func bool(_ key: String) -> Bool? {
        integer(key).map { $0 != 0 }
    }

    /// A four-character code stored as a number, or as four bytes of text (packed big-endian, as a
    /// `FourCharCode` is).
    func fourCharCode(_ key: String) -> UInt32? {
        if case .string(let text)? = values[key] {
            let bytes = Array(text.utf8)
            guard bytes.count == 4 else { return nil }
            return bytes.reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        }
        return integer(key).map { UInt32(truncatingIfNeeded: $0) }
    }

    func date(_ key: String) -> Date? {
        if case .date(let moment)? = values[key] { return moment }
        return nil
    }

    /// The protection class under `key`; none when the item's access control requires more than its
    /// class, which ``accessControl(_:)`` then carries.
    func protection(_ key: String) -> ProtectionClass? {
        guard accessControl(QueryKey.accessControl) == nil else { return nil }
        return string(key).flatMap(ProtectionClass.init(rawValue:))
    }

    /// The access control under `key`, when it requires more than its protection class.
    ///
    /// The keychain reports an access control for every item (derived from `pdmn` when none was given);
    /// one without flags says nothing `pdmn` does not, so it is left out.
    func accessControl(_ key: String) -> AccessControl? {
        guard case .accessControl(let control)? = values[key], !control.flags.isEmpty else { return nil }
        return control
    }

    /// The protocol under `key`; none when absent or the stored default 0.
    func internetProtocol(_ key: String) -> InternetProtocol? {
        switch values[key] {
        case .string(let code)? where !code.isEmpty: InternetProtocol(code: code)
        case .data(let bytes)?: String(data: bytes, encoding: .utf8).flatMap { $0.isEmpty ? nil : InternetProtocol(code: $0) }
        case .number(let number)? where number != 0: InternetProtocol(code: String(number))
        default: nil
        }
    }

    /// The authentication type under `key`; none when absent or the stored default `""`.
    func authenticationType(_ key: String) -> AuthenticationType? {
        string(key).flatMap { $0.isEmpty ? nil : AuthenticationType(code: $0) }
    }

    /// The persistent reference under `key`.
    func persistentReference(_ key: String) -> PersistentReference? {
        data(key).flatMap(PersistentReference.init(data:))
    }
}
