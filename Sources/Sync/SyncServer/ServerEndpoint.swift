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

    /// TLS to a server on TCP: the server's certificate is verified, chain and host name, with App Transport
    /// Security's defaults (CofferTLS's `AppTransportSecurity`).
    public struct TLS: Sendable, Equatable {
        /// A PEM file of the certificate authorities the server's chain must end at (libpq's `sslrootcert`), or nil
        /// for the system's (Debian's `ca-certificates`).
        public var rootCertificatesFile: String?

        /// TLS verified against `rootCertificatesFile`, else the system's authorities.
        public init(rootCertificatesFile: String? = nil) { self.rootCertificatesFile = rootCertificatesFile }
    }

    /// How the server is reached.
    public var address: Address
    /// The PostgreSQL role.
    public var username: String
    /// The database.
    public var database: String
    /// TLS to the server, or nil for none (a Unix socket, the loopback interface).
    public var tls: TLS?

    /// An endpoint.
    public init(address: Address, username: String, database: String, tls: TLS? = nil) {
        self.address = address
        self.username = username
        self.database = database
        self.tls = tls
    }
}
