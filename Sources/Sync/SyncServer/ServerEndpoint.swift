/// Where a sync server is and as whom Coffer connects: a PostgreSQL database, over a Unix socket or TCP, as one role.
/// It holds no password: passwords are given apart, so that this value may be shown and logged.
public struct ServerEndpoint: Sendable, Equatable {
    /// How the server is reached.
    public enum Address: Sendable, Equatable {
        /// A Unix socket, by the path of its file (`…/.s.PGSQL.5432`).
        case unixSocket(path: String)
        /// A host and port.
        case tcp(host: String, port: Int)
    }

    /// How the server is reached.
    public var address: Address
    /// The PostgreSQL role.
    public var username: String
    /// The database.
    public var database: String

    /// An endpoint.
    public init(address: Address, username: String, database: String) {
        self.address = address
        self.username = username
        self.database = database
    }
}
