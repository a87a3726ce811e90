import Foundation

/// A Core Foundation value as it can appear in a keychain query dictionary or result.
///
/// Apple's keychain decides almost every rule by the CF type of a value (a `CFBoolean` is not a `CFNumber`,
/// a `CFString` is not a `CFData`), so the cases keep exactly those distinctions. Values of any other type
/// are kept as ``unsupported(typeName:)`` so the parser can reject them with Apple's status.
public enum KeychainValue: Sendable, Hashable {
    /// A `CFString`.
    case string(String)
    /// A `CFData`.
    case data(Data)
    /// An integer `CFNumber`.
    case number(Int64)
    /// A floating-point `CFNumber`.
    case double(Double)
    /// A `CFBoolean` (`kCFBooleanTrue` / `kCFBooleanFalse`).
    case bool(Bool)
    /// A `CFDate`.
    case date(Date)
    /// `kCFNull`.
    case null
    /// A `CFUUID`.
    case uuid(UUID)
    /// A `CFArray`.
    case array([KeychainValue])
    /// A `CFDictionary` with string keys.
    case dictionary([String: KeychainValue])
    /// A `SecAccessControl`.
    case accessControl(AccessControl)
    /// What `kSecReturnRef` yields for a key (a `SecKey` in Apple's API): results only, never a query value.
    case itemReference(ItemReference)
    /// Any other object; `typeName` names its type for diagnostics.
    case unsupported(typeName: String)

    /// The string, if this is a ``string(_:)``.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The bytes, if this is a ``data(_:)``.
    public var dataValue: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// A short name of the CF type, for diagnostics.
    public var typeName: String {
        switch self {
        case .string: "CFString"
        case .data: "CFData"
        case .number, .double: "CFNumber"
        case .bool: "CFBoolean"
        case .date: "CFDate"
        case .null: "CFNull"
        case .uuid: "CFUUID"
        case .array: "CFArray"
        case .dictionary: "CFDictionary"
        case .accessControl: "SecAccessControl"
        case .itemReference(let reference): reference.typeName
        case .unsupported(let typeName): typeName
        }
    }
}

extension KeychainValue: ExpressibleByStringLiteral {
    /// A ``string(_:)`` value.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension KeychainValue: ExpressibleByBooleanLiteral {
    /// A ``bool(_:)`` value (a `CFBoolean`).
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension KeychainValue: ExpressibleByIntegerLiteral {
    /// A ``number(_:)`` value (an integer `CFNumber`).
    public init(integerLiteral value: Int64) { self = .number(value) }
}

extension KeychainValue: ExpressibleByFloatLiteral {
    /// A ``double(_:)`` value (a floating-point `CFNumber`).
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension KeychainValue: ExpressibleByArrayLiteral {
    /// An ``array(_:)`` value.
    public init(arrayLiteral elements: KeychainValue...) { self = .array(elements) }
}

extension KeychainValue: ExpressibleByDictionaryLiteral {
    /// A ``dictionary(_:)`` value; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, KeychainValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
