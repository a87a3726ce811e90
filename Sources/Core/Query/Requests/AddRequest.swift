import Foundation
import KeychainModel

/// A validated `SecItemAdd`.
///
/// Match keys (`kSecMatch…`) and `kSecUseItemList` are rejected with -50 rather than turning the add into
/// the silent no-op that Apple's daemon source suggests (rule A9): that quirk is source-derived and not
/// verified, and Apple's documentation of `SecItemAdd` lists only class, attribute, value and return keys,
/// so search keys are invalid parameters of an add. There is therefore no "silent no-op" request.
public struct AddRequest: Sendable, Hashable {
    /// The item class.
    public var itemClass: ItemClass
    /// The item's attributes with the §1.5 defaults filled in: NOT NULL key attributes (`""`, 0), `sync`
    /// (0 or 1), `tomb` 0, `musr` empty, `pdmn`, and `accc` when the caller passed one. Not included: `agrp`
    /// (see ``accessGroup``), `cdat`/`mdat` (the engine stamps them; caller values are discarded), and the
    /// engine's bookkeeping (`persistref`, `UUID`, `sha1`).
    public var attributes: AttributeSet
    /// `kSecAttrAccessGroup` when given (the engine checks it against the caller's groups, G13/A7);
    /// nil means the caller's default group (§8).
    public var accessGroup: String?
    /// The protection class: from `kSecAttrAccessible`, from the access control, or the default `ak`
    /// (certificates `dk`).
    public var protection: ProtectionClass
    /// `kSecAttrAccessControl` when given.
    public var accessControl: AccessControl?
    /// `kSecValueData`: the secret.
    public var valueData: Data?
    /// What to return.
    public var returns: ReturnOptions
    /// Authentication settings.
    public var authentication: AuthenticationOptions

    /// Whether the item is synchronizable (`sync` = 1).
    public var isSynchronizable: Bool { attributes[QueryKey.synchronizable] == .number(1) }

    /// The attributes to store once the engine has settled the access group: ``attributes`` plus `agrp`.
    public func attributes(withAccessGroup group: String) -> AttributeSet {
        var stored = attributes
        stored[QueryKey.accessGroup] = .string(group)
        return stored
    }
}
