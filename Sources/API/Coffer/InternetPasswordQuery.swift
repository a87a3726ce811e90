import Foundation
import Query

/// Which internet passwords an operation applies to: every property that is set must match exactly.
///
/// Matching is Apple's: exact, case-sensitive equality, no wildcards. ``ItemQuery/hostOrSubdomainOf``
/// adds Apple's one inexact match: the server equals the host or ends with `.host`.
public typealias InternetPasswordQuery = ItemQuery<InternetPassword>

extension ItemQuery where Item == InternetPassword {
    /// A query on server, account and protocol (each may be nil to match any).
    public init(
        server: String? = nil, account: String? = nil, protocol: InternetProtocol? = nil,
        accessGroup: String? = nil, synchronizable: SynchronizableMatch = .any
    ) {
        self.init()
        self.server = server
        self.account = account
        self.protocol = `protocol`
        self.accessGroup = accessGroup
        self.synchronizable = synchronizable
    }

    /// `kSecMatchHostOrSubdomainOfHost`: only items whose server is this host or a subdomain of it.
    /// Reads only: `update` and `delete` fail with `errSecParam` (-50).
    public var hostOrSubdomainOf: String? {
        get { entries[QueryKey.matchHostOrSubdomainOfHost]?.stringValue }
        set { entries[QueryKey.matchHostOrSubdomainOfHost] = newValue.map(KeychainValue.string) }
    }
}
