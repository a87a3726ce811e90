import KeychainModel
import Query

/// The attributes of an internet-password item (`kSecClassInternetPassword`) that a credential helper
/// names, as a query or as the attributes of an item to add. A nil field is left out, so a query matches
/// any value of it.
public struct InternetPasswordQuery: Sendable, Hashable {
    /// `kSecAttrServer`: the host name, without a port.
    public var server: String?
    /// `kSecAttrProtocol`: a four-character code such as `htps`.
    public var protocolCode: String?
    /// `kSecAttrPort`.
    public var port: Int?
    /// `kSecAttrPath`.
    public var path: String?
    /// `kSecAttrAccount`: the user name.
    public var account: String?
    /// `kSecAttrLabel`.
    public var label: String?
    /// `kSecAttrAuthenticationType`: a four-character code such as `dflt`.
    public var authenticationType: String?

    /// A query naming the given attributes.
    public init(
        server: String? = nil, protocolCode: String? = nil, port: Int? = nil, path: String? = nil,
        account: String? = nil, label: String? = nil, authenticationType: String? = nil
    ) {
        self.server = server
        self.protocolCode = protocolCode
        self.port = port
        self.path = path
        self.account = account
        self.label = label
        self.authenticationType = authenticationType
    }

    /// The fields of a found item's attributes (as `kSecReturnAttributes` gives them).
    public init(attributes: [String: KeychainValue]) {
        server = attributes[QueryKey.server]?.stringValue
        protocolCode = attributes[QueryKey.protocol]?.stringValue
        if case .number(let number)? = attributes[QueryKey.port] { port = Int(number) }
        path = attributes[QueryKey.path]?.stringValue
        account = attributes[QueryKey.account]?.stringValue
        label = attributes[QueryKey.label]?.stringValue
        authenticationType = attributes[QueryKey.authenticationType]?.stringValue
    }

    /// The class and every field that is set, as `SecItem…` dictionary entries.
    public var dictionary: QueryDictionary {
        var query: QueryDictionary = [.string(QueryKey.itemClass): .string(QueryConstant.classInternetPassword)]
        query[QueryKey.server] = server.map(KeychainValue.string)
        query[QueryKey.protocol] = protocolCode.map(KeychainValue.string)
        query[QueryKey.port] = port.map { .number(Int64($0)) }
        query[QueryKey.path] = path.map(KeychainValue.string)
        query[QueryKey.account] = account.map(KeychainValue.string)
        query[QueryKey.label] = label.map(KeychainValue.string)
        query[QueryKey.authenticationType] = authenticationType.map(KeychainValue.string)
        return query
    }
}
