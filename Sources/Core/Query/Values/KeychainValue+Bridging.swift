import Foundation

extension KeychainValue {
    /// Converts a Swift or Foundation value into the CF value Apple's keychain would see.
    ///
    /// - `Bool` and boolean `NSNumber`s (`NSNumber(value: true)`, `kCFBooleanTrue`) become ``bool(_:)``;
    ///   every other integer becomes ``number(_:)`` and floating-point values ``double(_:)``.
    /// - `String`, `NSString`, `Substring` → ``string(_:)``; `Data`, `NSData` → ``data(_:)``;
    ///   `Date`, `NSDate` → ``date(_:)``; `UUID`, `NSUUID` → ``uuid(_:)``; `NSNull` → ``null``.
    /// - Arrays (including `[UInt8]`) become ``array(_:)`` of converted elements; dictionaries with
    ///   string keys become ``dictionary(_:)``.
    /// - Anything else is ``unsupported(typeName:)``.
    public init(bridging value: Any) {
        if let converted = Self.convertKnownScalar(value) {
            self = converted
        } else if let array = value as? [Any] {
            self = .array(array.map(KeychainValue.init(bridging:)))
        } else if let dictionary = value as? [AnyHashable: Any] {
            self = Self.convertDictionary(dictionary, typeName: String(describing: type(of: value)))
        } else {
            self = .unsupported(typeName: String(describing: type(of: value)))
        }
    }

    /// The value as a Foundation object: `String`, `Data`, `NSNumber` (booleans as the boolean `NSNumber`),
    /// `Date`, `UUID`, `NSNull`, `[Any]`, `[String: Any]`, ``AccessControl`` or ``ItemReference``.
    ///
    /// Callers can cast the result with `as? Data`, `as? String`, `as? Int`, `as? Bool`, `as? [String: Any]`,
    /// `as? [[String: Any]]` or `as? NSDictionary`. An ``unsupported(typeName:)`` value bridges to `NSNull`.
    public var bridged: Any {
        switch self {
        case .string(let value): value
        case .data(let value): value
        case .number(let value): NSNumber(value: value)
        case .double(let value): NSNumber(value: value)
        case .bool(let value): NSNumber(value: value)
        case .date(let value): value
        case .null: NSNull()
        case .uuid(let value): value
        case .array(let elements): elements.map(\.bridged) as [Any]
        case .dictionary(let entries): entries.mapValues(\.bridged) as [String: Any]
        case .accessControl(let value): value
        case .itemReference(let value): value
        case .unsupported: NSNull()
        }
    }

    /// The value of the types keychain dictionaries hold most (`String`, `NSString`, `Data`, `NSData`,
    /// `Bool`, `Int`, `NSNumber`), recognised by their dynamic type alone; nil for anything else,
    /// `Optional` included.
    ///
    /// A failed dynamic cast from `Any` costs a protocol-conformance or bridging lookup, and trying a
    /// dozen types in turn cost as much as a whole find; comparing the dynamic type first costs nothing.
    public static func bridgingCommonScalar(_ value: Any) -> KeychainValue? {
        let dynamicType = type(of: value)
        if dynamicType == String.self { return .string(value as! String) }
        if dynamicType == Bool.self { return .bool(value as! Bool) }
        if dynamicType == Int.self { return .number(Int64(value as! Int)) }
        if dynamicType == Data.self { return .data(value as! Data) }
        if dynamicType is NSString.Type { return .string((value as! NSString) as String) }
        if dynamicType is NSNumber.Type { return convertNSNumber(value as! NSNumber) }
        if dynamicType is NSData.Type { return .data((value as! NSData) as Data) }
        return nil
    }

    /// Converts values that are not collections; nil for arrays, dictionaries and unknown types.
    private static func convertKnownScalar(_ value: Any) -> KeychainValue? {
        if let common = bridgingCommonScalar(value) { return common }
        switch value {
        case let value as KeychainValue: return value
        case let value as AccessControl: return .accessControl(value)
        case let value as ItemReference: return .itemReference(value)
        default: break
        }
        if let number = convertSwiftNumber(value) { return number }
        switch value {
        case let value as String: return .string(value)
        case let value as Substring: return .string(String(value))
        case let value as Data: return .data(value)
        case let value as Date: return .date(value)
        case let value as UUID: return .uuid(value)
        case is NSNull: return .null
        default: return nil
        }
    }

    /// Converts Swift's own numeric types. Callers rule out `NSNumber` first: Foundation would otherwise
    /// bridge an `NSNumber` to any of these types.
    private static func convertSwiftNumber(_ value: Any) -> KeychainValue? {
        switch value {
        case let value as Int: .number(Int64(value))
        case let value as Int8: .number(Int64(value))
        case let value as Int16: .number(Int64(value))
        case let value as Int32: .number(Int64(value))
        case let value as Int64: .number(value)
        case let value as UInt: unsigned(UInt64(value))
        case let value as UInt8: .number(Int64(value))
        case let value as UInt16: .number(Int64(value))
        case let value as UInt32: .number(Int64(value))
        case let value as UInt64: unsigned(value)
        case let value as Double: .double(value)
        case let value as Float: .double(Double(value))
        default: nil
        }
    }

    /// An unsigned integer: a number when it fits in 64-bit signed range, else a floating-point number
    /// (CFNumber has no unsigned 64-bit type).
    private static func unsigned(_ value: UInt64) -> KeychainValue {
        if let signed = Int64(exactly: value) { return .number(signed) }
        return .double(Double(value))
    }

    /// Classifies an `NSNumber`: the boolean singletons are `CFBoolean`s, `d`/`f` encodings are
    /// floating point, everything else is an integer.
    private static func convertNSNumber(_ number: NSNumber) -> KeychainValue {
        if isBooleanNumber(number) { return .bool(number.boolValue) }
        let encoding = String(cString: number.objCType)
        if encoding == "d" || encoding == "f" { return .double(number.doubleValue) }
        if encoding == "Q" || encoding == "L" { return unsigned(number.uint64Value) }
        return .number(number.int64Value)
    }

    /// Whether the number is Foundation's boolean `NSNumber` (`kCFBooleanTrue`/`kCFBooleanFalse`).
    ///
    /// On Linux and on Darwin, `NSNumber(value: true)` and `NSNumber(value: false)` are singletons of a
    /// dedicated boolean subclass; an `NSNumber(value: 1)` is neither.
    static func isBooleanNumber(_ number: NSNumber) -> Bool {
        if number === NSNumber(value: true) || number === NSNumber(value: false) { return true }
        return String(describing: type(of: number)).contains("Boolean")
    }

    /// Converts a dictionary whose keys are all strings; other dictionaries are unsupported.
    private static func convertDictionary(_ dictionary: [AnyHashable: Any], typeName: String) -> KeychainValue {
        var entries: [String: KeychainValue] = [:]
        for (key, element) in dictionary {
            guard let name = key.base as? String else { return .unsupported(typeName: typeName) }
            entries[name] = KeychainValue(bridging: element)
        }
        return .dictionary(entries)
    }
}
