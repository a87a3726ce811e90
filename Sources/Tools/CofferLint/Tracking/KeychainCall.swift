import SwiftSyntax

/// A call of one of Apple's SecItem or SecKey functions with the dictionaries the source shows it receives.
struct KeychainCall: Sendable {
    enum Function: String, Sendable, CaseIterable {
        case add = "SecItemAdd"
        case copyMatching = "SecItemCopyMatching"
        case update = "SecItemUpdate"
        case delete = "SecItemDelete"
        case createRandomKey = "SecKeyCreateRandomKey"
    }

    /// What the code does with the OSStatus the call returns.
    enum StatusUse: Sendable, Equatable {
        /// Nothing: the call is a statement, or its result goes to `_`.
        case ignored
        /// Kept in a variable of this name.
        case bound(String)
        /// Compared, returned, passed on or thrown.
        case used
    }

    let function: Function
    /// The first dictionary: the attributes of an add or a new key, the search of the others.
    let query: TrackedDictionary
    /// An update's attributes to change.
    let attributesToUpdate: TrackedDictionary?
    /// Where the call is, and the scope (function, closure or file) it is in.
    let point: SourcePoint
    let position: AbsolutePosition
    let scope: SyntaxIdentifier
    /// The helper the call went through, when it was not Apple's function itself.
    let wrapper: String?
    let status: StatusUse
    /// `&result` of SecItemCopyMatching.
    let resultVariable: String?
    /// The status whose failure the call is in the branch of: a variable's name, or `SecItemAdd` when that call is
    /// in the condition (see ``FailureBranch``).
    let afterFailureOf: String?
    /// Whether the call is in a `#if` branch that both macOS and Linux take while iOS takes another (the macOS
    /// branch Apple code takes on Linux).
    let inMacOSBranch: Bool

    /// Both dictionaries, the query first.
    var dictionaries: [TrackedDictionary] { [query] + (attributesToUpdate.map { [$0] } ?? []) }
}
