import Foundation

/// New values for the generic passwords an update matches: every property that is set is written,
/// the others keep their stored values.
///
/// ```swift
/// try await keychain.update(
///     matching: GenericPasswordQuery(service: "com.example.api", account: "alice"),
///     changes: GenericPasswordChanges(value: Data("new secret".utf8)))
/// ```
///
/// Changing the service, account, access group or synchronizable flag changes the primary key: a
/// collision with another item is `errSecDuplicateItem` (-25299) and nothing is changed.
public typealias GenericPasswordChanges = ItemChanges<GenericPassword>

extension ItemChanges where Item == GenericPassword {
    /// Changes; set the properties to change.
    public init(
        value: Data? = nil, service: String? = nil, account: String? = nil, accessGroup: String? = nil,
        label: String? = nil, comment: String? = nil, kind: String? = nil, generic: Data? = nil,
        accessibility: Accessibility? = nil
    ) {
        self.init()
        self.value = value
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.label = label
        self.comment = comment
        self.kind = kind
        self.generic = generic
        self.accessibility = accessibility
    }
}
