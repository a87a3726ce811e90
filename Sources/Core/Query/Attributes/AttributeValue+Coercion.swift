import Foundation
import KeychainModel

extension AttributeValue {
    /// Coerces a query value to the stored form of `kind`, as Apple's `copyBlob`/`copyData`/`copyString`/
    /// `copyNumber`/`copyDate`/`copyUUID`/`copySHA1` do (§1.2).
    ///
    /// Throws a ``QueryRejection`` with ``KeychainStatus/param`` (-50, rule G5) for a value the kind cannot
    /// hold: for example a date for `acct`, an array or `kCFNull` anywhere but a UUID attribute, invalid UTF-8
    /// for a string attribute.
    public static func coerce(_ value: KeychainValue, to kind: AttributeKind) throws(QueryRejection) -> AttributeValue {
        try coerce(value, to: kind, key: nil)
    }

    /// ``coerce(_:to:)`` for the attribute `key`, which a rejection names.
    static func coerce(_ value: KeychainValue, to kind: AttributeKind, key: String?) throws(QueryRejection) -> AttributeValue {
        let coerced: AttributeValue? =
            switch kind {
            case .blob: blob(value)
            case .data: data(value)
            case .string, .access: string(value)
            case .number, .sync, .tombstone: number(value)
            case .date, .creationDate, .modificationDate: date(value)
            case .uuid: uuid(value)
            case .sha1: sha1(value)
            case .accessControl: accessControl(value)
            }
        guard let coerced else { throw unconvertible(value, to: kind, key: key) }
        try SizeLimits.checkAttribute(coerced, key: key)
        return coerced
    }

    /// G5 (G10 for `pdmn`, G11 for `accc`): `value` has a type an attribute of `kind` cannot hold.
    private static func unconvertible(_ value: KeychainValue, to kind: AttributeKind, key: String?) -> QueryRejection {
        let rule: KeychainRule =
            switch kind {
            case .access: .g10
            case .accessControl: .g11
            default: .g5
            }
        let accepted =
            switch kind {
            case .blob, .data: "a CFString, CFData or CFNumber"
            case .string, .access: "a CFString, UTF-8 CFData or CFUUID"
            case .number, .sync, .tombstone: "a CFNumber, CFBoolean or decimal CFString"
            case .date, .creationDate, .modificationDate: "a CFDate"
            case .uuid: "16 bytes of CFData, a CFUUID or kCFNull"
            case .sha1: "20 bytes of CFData"
            case .accessControl: "a SecAccessControl"
            }
        let subject = key.map { AppleNames.key($0) } ?? "this attribute"
        return .param(rule, key: key, "\(subject) cannot hold \(value.typeDescription); it takes \(accepted)")
    }

    private static func blob(_ value: KeychainValue) -> AttributeValue? {
        switch value {
        case .string(let text): .string(text)
        case .data(let bytes): .data(bytes)
        case .number(let integer): .number(integer)
        case .double(let real): truncated(real).map(AttributeValue.number)
        default: nil
        }
    }

    private static func data(_ value: KeychainValue) -> AttributeValue? {
        switch value {
        case .data(let bytes): .data(bytes)
        case .string(let text): .data(Data(text.utf8))
        case .number(let integer): .data(littleEndianInt32(integer))
        case .double(let real): truncated(real).map { .data(littleEndianInt32($0)) }
        default: nil
        }
    }

    private static func string(_ value: KeychainValue) -> AttributeValue? {
        switch value {
        case .string(let text): .string(text)
        case .data(let bytes): String(data: bytes, encoding: .utf8).map(AttributeValue.string)
        case .uuid(let identifier): .string(identifier.uuidString)
        default: nil
        }
    }

    private static func number(_ value: KeychainValue) -> AttributeValue? {
        switch value {
        case .number(let integer): .number(integer)
        case .double(let real): truncated(real).map(AttributeValue.number)
        case .bool(let flag): .number(flag ? 1 : 0)
        case .string(let text): exactDecimalInt32(text).map { .number(Int64($0)) } ?? .string(text)
        default: nil
        }
    }

    private static func date(_ value: KeychainValue) -> AttributeValue? {
        if case .date(let moment) = value { return .date(moment) }
        return nil
    }

    private static func uuid(_ value: KeychainValue) -> AttributeValue? {
        switch value {
        case .data(let bytes) where bytes.isEmpty || bytes.count == 16: .data(bytes)
        case .null: .data(Data())
        case .uuid(let identifier): .data(withUnsafeBytes(of: identifier.uuid) { Data($0) })
        default: nil
        }
    }

    private static func sha1(_ value: KeychainValue) -> AttributeValue? {
        if case .data(let bytes) = value, bytes.count == 20 { return .data(bytes) }
        return nil
    }

    private static func accessControl(_ value: KeychainValue) -> AttributeValue? {
        if case .accessControl(let control) = value { return .accessControl(control) }
        return nil
    }

    /// A floating-point CFNumber read as an integer, truncating toward zero like Apple's DER encoding;
    /// nil for values with no integer form (NaN, infinities, out of range).
    private static func truncated(_ real: Double) -> Int64? {
        Int64(exactly: real.rounded(.towardZero))
    }

    /// The integer a string denotes when the string is exactly the decimal rendering of a 32-bit integer
    /// (`"443"` yes; `"0443"`, `"+443"`, `" 443"` and `"htps"` no), as Apple's `copyNumber` requires.
    static func exactDecimalInt32(_ text: String) -> Int32? {
        guard let integer = Int32(text), String(integer) == text else { return nil }
        return integer
    }

    /// Four bytes: the value as a native-endian (little-endian) `SInt32`, as `CFNumberGetValue` gives it.
    static func littleEndianInt32(_ integer: Int64) -> Data {
        withUnsafeBytes(of: Int32(truncatingIfNeeded: integer).littleEndian) { Data($0) }
    }
}
