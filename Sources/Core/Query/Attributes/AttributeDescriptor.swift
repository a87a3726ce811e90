import Foundation

/// One attribute of an item class: its code, Apple constant, kind, flags and add-time default.
public struct AttributeDescriptor: Sendable, Hashable {
    /// Schema flags of an attribute (§1.2).
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: UInt16
        /// Flags from raw bits.
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// Part of the class's uniqueness constraint (P).
        public static let primaryKey = Flags(rawValue: 1 << 0)
        /// Apple stores the SHA-1 of the value in the column, so matching compares bytes (S).
        public static let hashed = Flags(rawValue: 1 << 1)
        /// The column is indexed (I).
        public static let indexed = Flags(rawValue: 1 << 2)
        /// Returned in the attribute dictionary of `SecItemAdd` results (A).
        public static let returned = Flags(rawValue: 1 << 3)
        /// Part of the secret, returned as data like `v_Data` (D).
        public static let secret = Flags(rawValue: 1 << 4)
        /// Must not be NULL; filled with ``AttributeDescriptor/defaultValue`` on add (N).
        public static let notNull = Flags(rawValue: 1 << 5)
        /// Part of the item's `sha1` digest when it has a value (H; reference §5.6).
        public static let inDigest = Flags(rawValue: 1 << 6)
    }

    /// What a caller may do with the attribute.
    public enum CallerAccess: Sendable, Hashable {
        /// An ordinary attribute.
        case settable
        /// Bookkeeping the keychain maintains (`persistref`, `UUID`, `sha1`, `tomb`): accepted and validated,
        /// kept as a search filter, discarded when adding or updating.
        case managed
        /// Always the caller's own user view (`musr`): validated, then discarded everywhere; the engine
        /// supplies the value.
        case callerView
        /// The sharing-group SPI (`ggrp`): a search filter only; add → -34018 (no entitlement), update → -50 (U7).
        case sharingGroup
        /// Never accepted from a caller (`clip`) → -50 (G14).
        case forbidden
    }

    /// The four-character (or longer SPI) attribute code, such as `acct`.
    public let code: String
    /// Apple's constant name, such as `kSecAttrAccount`; nil when Apple has none.
    public let constantName: String?
    /// How values are coerced and compared.
    public let kind: AttributeKind
    /// Schema flags.
    public let flags: Flags
    /// The value written on add when the caller gives none (NOT NULL attributes only).
    public let defaultValue: AttributeValue?
    /// What a caller may do with the attribute.
    public let callerAccess: CallerAccess

    /// A descriptor.
    public init(
        code: String, constantName: String?, kind: AttributeKind, flags: Flags = [],
        defaultValue: AttributeValue? = nil, callerAccess: CallerAccess = .settable
    ) {
        self.code = code
        self.constantName = constantName
        self.kind = kind
        self.flags = flags
        self.defaultValue = defaultValue
        self.callerAccess = callerAccess
    }

    /// Whether the attribute is part of the class's uniqueness constraint.
    public var isPrimaryKey: Bool { flags.contains(.primaryKey) }

    /// Whether the attribute's value goes into the item's `sha1` digest (Apple's H flag).
    public var isInDigest: Bool { flags.contains(.inDigest) }

    /// Whether matching compares the value's bytes (hashed columns and byte kinds), as Apple does.
    public var comparesBytes: Bool { kind.comparesBytes || flags.contains(.hashed) }

    /// The value a stored item has for this attribute when none was written: the NOT NULL default, or the
    /// empty string for the nullable text key columns (`vwht`, `tkid`, `ggrp`) that Apple stores as `''`.
    public var absentValue: AttributeValue? {
        if let defaultValue { return defaultValue }
        if isPrimaryKey, kind == .string { return .string("") }
        return nil
    }

    /// The canonical bytes Apple's equality matching and uniqueness see for `value` in this attribute.
    ///
    /// For attributes compared by bytes, a string, data and a number all reduce to their `copyData` bytes
    /// (UTF-8, raw, four little-endian bytes), so `"abc"` ≡ `Data("abc")` and `5` ≡ `05 00 00 00` (§10.1).
    /// Other attributes use ``AttributeValue/matchKey``.
    public func matchKey(of value: AttributeValue) -> Data {
        comparesBytes ? value.byteMatchKey : value.matchKey
    }
}
