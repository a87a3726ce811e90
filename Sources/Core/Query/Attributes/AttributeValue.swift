import Foundation

/// An attribute value in the form the keychain stores and returns it (§1.2, §10.10).
///
/// Blob attributes keep strings and data apart (a string comes back as a string); number attributes keep
/// non-numeric text such as protocol codes as ``string(_:)``.
public enum AttributeValue: Sendable, Hashable {
    /// Text.
    case string(String)
    /// Bytes.
    case data(Data)
    /// An integer.
    case number(Int64)
    /// A date (Apple stores `CFAbsoluteTime`).
    case date(Date)
    /// A `SecAccessControl` (`accc`).
    case accessControl(AccessControl)

    /// The value as the CF value a result dictionary carries.
    public var keychainValue: KeychainValue {
        switch self {
        case .string(let value): .string(value)
        case .data(let value): .data(value)
        case .number(let value): .number(value)
        case .date(let value): .date(value)
        case .accessControl(let value): .accessControl(value)
        }
    }

    /// The integer, if this is a ``number(_:)``.
    public var numberValue: Int64? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The text, if this is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
