import Foundation

/// Which generic passwords an operation applies to: every property that is set must match exactly.
///
/// Matching is Apple's: exact, case-sensitive equality, no wildcards. An empty query matches every
/// generic password in the caller's access groups.
///
/// ```swift
/// var query = GenericPasswordQuery(service: "com.example.api")
/// query.label = "Production"
/// let items = try await keychain.items(matching: query)
/// ```
public typealias GenericPasswordQuery = ItemQuery<GenericPassword>

extension ItemQuery where Item == GenericPassword {
    /// A query on service and account (either may be nil to match any).
    public init(
        service: String? = nil, account: String? = nil, accessGroup: String? = nil,
        synchronizable: SynchronizableMatch = .any
    ) {
        self.init()
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
    }
}
