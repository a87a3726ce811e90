import Foundation
import KeychainModel

/// Everything a query dictionary said, after key classification and value coercion (§2.1) but before
/// the rules of a particular call.
struct ParsedQuery: Sendable {
    /// The item class.
    var itemClass: ItemClass
    /// Every attribute key with its coerced value, in key order (`sync` normalized to 0/1; absent when the
    /// value was `kSecAttrSynchronizableAny`).
    var attributes = AttributeSet()
    /// Whether `sync` was `kSecAttrSynchronizableAny`.
    var synchronizableAny = false
    /// The protection from `kSecAttrAccessible`, when given.
    var accessible: ProtectionClass?
    /// The access control from `kSecAttrAccessControl`, when given.
    var accessControl: AccessControl?
    /// The `kSecReturn…` flags set to true.
    var returns: ReturnOptions = []
    /// Every `m…` key present, known or not.
    var matchKeys: Set<String> = []
    /// `kSecMatchLimit`, when given.
    var matchLimit: MatchLimit?
    /// `kSecMatchHostOrSubdomainOfHost`, when given.
    var hostOrSubdomainOf: String?
    /// `kSecValueData`, when given.
    var valueData: Data?
    /// `kSecValuePersistentRef`, when given.
    var persistentRef: PersistentReference?
    /// Whether `kSecUseItemList` is present.
    var usesItemList = false
    /// `kSecUseTombstones`, when given.
    var useTombstones: Bool?
    /// `kSecUseNoAuthenticationUI` = true.
    var noAuthenticationUI = false
    /// `kSecUseAuthenticationUI`, when given.
    var explicitAuthenticationUI: AuthenticationUI?
    /// The `LAContext` given has `interactionNotAllowed` set.
    var contextInteractionNotAllowed = false
    /// The other authentication settings.
    var authentication = AuthenticationOptions()

    init(itemClass: ItemClass) { self.itemClass = itemClass }

    /// Whether the query filters on any stored attribute (C4, U8, D2). `kSecAttrSynchronizableAny` and
    /// `kSecAttrAccessControl` are not filters.
    var hasAttributeFilters: Bool {
        attributes.contains { entry in
            AttributeCatalogue.descriptor(for: entry.code, in: itemClass)?.kind != .accessControl
        }
    }

    /// The codes of the attributes that are filters, for a rejection to name.
    var attributeFilterCodes: [String] {
        attributes.codes.filter { code in AttributeCatalogue.descriptor(for: code, in: itemClass)?.kind != .accessControl }
    }

    /// The effective authentication settings: an explicit `kSecUseAuthenticationUI` wins, then
    /// `kSecUseNoAuthenticationUI = true` (≡ Fail), else Allow.
    /// A context with `interactionNotAllowed` acts as Fail, unless the call asked for Skip.
    var effectiveAuthentication: AuthenticationOptions {
        var options = authentication
        options.ui = explicitAuthenticationUI ?? (noAuthenticationUI ? .fail : .allow)
        if contextInteractionNotAllowed, options.ui == .allow { options.ui = .fail }
        return options
    }
}
