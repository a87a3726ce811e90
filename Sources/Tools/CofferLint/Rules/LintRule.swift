/// A pitfall `coffer lint` finds in code that calls Apple's SecItem functions: its identifier, how serious it is, the
/// one-line message's gist and why it matters.
public enum LintRule: String, Sendable, CaseIterable, Comparable {
    /// An attribute the item class does not have (the keychain reference's G-rules): errSecNoSuchAttr (-25303), or on
    /// the macOS branch a search that matches nothing.
    case attributeNotInClass = "attribute-not-in-class"
    /// `kSecMatchLimit` in `SecItemAdd`: a search key in an add, errSecParam (-50).
    case matchLimitInAdd = "match-limit-in-add"
    /// `kSecReturn…` in `SecItemUpdate`'s query or attributes: errSecParam (-50).
    case returnInUpdate = "return-in-update"
    /// `kSecValueData` in `SecItemUpdate`'s query (the search): errSecParam (-50) on the data protection keychain.
    case valueInUpdateQuery = "value-in-update-query"
    /// `kSecClass` among `SecItemUpdate`'s attributes to change: errSecParam (-50).
    case classInUpdateAttributes = "class-in-update-attributes"
    /// `kSecAttrAccessibleAlways` or `…AlwaysThisDeviceOnly`: deprecated since iOS 12, readable while locked.
    case accessibleAlways = "accessible-always"

    /// How serious a finding of the rule is.
    public enum Severity: String, Sendable, Comparable {
        case warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// The rule's severity: errors fail the call every time; warnings are pitfalls that may work until they do not.
    public var severity: Severity {
        switch self {
        case .attributeNotInClass, .matchLimitInAdd, .returnInUpdate, .valueInUpdateQuery, .classInUpdateAttributes: .error
        case .accessibleAlways: .warning
        }
    }

    /// Why the rule matters, for `--explain` and the JSON and SARIF outputs.
    public var reason: String {
        switch self {
        case .attributeNotInClass:
            "Each item class has its own attributes (the keychain reference's rule G4); one of another class makes the call fail with errSecNoSuchAttr, or on macOS's file-based keychain silently match nothing."
        case .matchLimitInAdd:
            "SecItemAdd takes attributes and return keys, not search keys: kSecMatchLimit makes it fail with errSecParam."
        case .returnInUpdate:
            "SecItemUpdate returns nothing: a kSecReturn key in its query or attributes makes it fail with errSecParam."
        case .valueInUpdateQuery:
            "SecItemUpdate's first dictionary is a search; the new data belongs in the second (attributes to update)."
        case .classInUpdateAttributes:
            "An update cannot change an item's class: kSecClass belongs in the query only."
        case .accessibleAlways:
            "kSecAttrAccessibleAlways and kSecAttrAccessibleAlwaysThisDeviceOnly are deprecated: the item is readable while the device is locked. Use kSecAttrAccessibleAfterFirstUnlock (or …ThisDeviceOnly)."
        }
    }

    public static func < (lhs: LintRule, rhs: LintRule) -> Bool { lhs.rawValue < rhs.rawValue }
}
