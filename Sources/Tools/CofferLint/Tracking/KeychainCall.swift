import SwiftSyntax

/// A call of one of Apple's SecItem functions with the dictionaries the source shows it receives.
struct KeychainCall: Sendable {
    enum Function: String, Sendable, CaseIterable {
        case add = "SecItemAdd"
        case copyMatching = "SecItemCopyMatching"
        case update = "SecItemUpdate"
        case delete = "SecItemDelete"
    }

    let function: Function
    /// The first dictionary: the attributes of an add, the search of the others.
    let query: TrackedDictionary
    /// An update's attributes to change.
    let attributesToUpdate: TrackedDictionary?
    /// Where the call is.
    let position: AbsolutePosition
}
