import Foundation

/// New values for the internet passwords an update matches: every property that is set is written,
/// the others keep their stored values.
///
/// Changing a primary-key attribute (server, account, security domain, protocol, authentication type,
/// port, path, access group, synchronizable) can collide with another item: `errSecDuplicateItem`
/// (-25299), and nothing is changed.
public typealias InternetPasswordChanges = ItemChanges<InternetPassword>

extension ItemChanges where Item == InternetPassword {
    /// Changes; set the properties to change.
    public init(
        value: Data? = nil, server: String? = nil, account: String? = nil, protocol: InternetProtocol? = nil,
        port: Int? = nil, path: String? = nil, label: String? = nil, accessibility: Accessibility? = nil
    ) {
        self.init()
        self.value = value
        self.server = server
        self.account = account
        self.protocol = `protocol`
        self.port = port
        self.path = path
        self.label = label
        self.accessibility = accessibility
    }
}
