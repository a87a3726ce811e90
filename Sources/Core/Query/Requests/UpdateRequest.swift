import Foundation
import KeychainModel

/// A validated `SecItemUpdate`.
public struct UpdateRequest: Sendable, Hashable {
    /// The items to change (limit `.all`, no return options).
    public var search: SearchRequest
    /// New attribute values (merged over each item's; missing attributes keep their values). Excludes
    /// `agrp`, `pdmn` and `accc` (see the properties below), `mdat` (the engine stamps it) and bookkeeping
    /// attributes; includes `cdat` when the caller gives one, which Apple applies (§10.2).
    public var changes: AttributeSet
    /// `kSecAttrAccessGroup` in the changes: move the items (the engine checks the writable list, U6).
    public var newAccessGroup: String?
    /// `kSecValueData` in the changes: the new secret.
    public var newValueData: Data?
    /// The new protection class, from `kSecAttrAccessible` or the new access control.
    public var newProtection: ProtectionClass?
    /// `kSecAttrAccessControl` in the changes.
    public var newAccessControl: AccessControl?
}
