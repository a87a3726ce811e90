import Foundation
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

    /// The protection class from `pdmn`.
    var accessibility: Accessibility? {
        string(QueryKey.accessible).flatMap(Accessibility.init(rawValue:))
    }

    /// The access control from `accc`, when it requires more than its protection class.
    ///
    /// The keychain reports an access control for every item (derived from `pdmn` when none was given);
    /// one without flags says nothing `pdmn` does not, so it is left out.
    var accessControl: AccessControl? {
        guard case .accessControl(let control)? = values[QueryKey.accessControl], !control.flags.isEmpty else {
            return nil
        }
        return control
    }

    /// The protocol from `ptcl`; nil when absent or the stored default 0.
    var internetProtocol: InternetProtocol? {
        switch values[QueryKey.protocol] {
        case .string(let code)? where !code.isEmpty: InternetProtocol(code: code)
        case .data(let bytes)?: String(data: bytes, encoding: .utf8).flatMap { $0.isEmpty ? nil : InternetProtocol(code: $0) }
        case .number(let number)? where number != 0: InternetProtocol(code: String(number))
        default: nil
        }
    }

    /// The authentication type from `atyp`; nil when absent or the stored default `""`.
    var authenticationType: AuthenticationType? {
        string(QueryKey.authenticationType).flatMap { $0.isEmpty ? nil : AuthenticationType(code: $0) }
    }

    /// The secret (`v_Data`); empty when the result has none.
    var secret: Data { data(QueryKey.valueData) ?? Data() }

    /// The persistent reference (`v_PersistentRef`).
    var persistentReference: PersistentReference? {
        data(QueryKey.valuePersistentRef).flatMap(PersistentReference.init(data:))
    }
}
