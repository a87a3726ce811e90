import Foundation

extension ServerEndpoint {
    /// Why a connection string was refused.
    public struct DSNError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The endpoint a libpq connection URI names: `postgresql://[user@][host][:port][/database][?host=/socket/folder]`
    /// (`postgres://` too). A host that starts with `/` (percent-encoded in the authority, or in `?host=`) is a
    /// socket folder; no host means Debian's `/var/run/postgresql`. The port defaults to 5432, the user to
    /// `defaultUser`, the database to the user.
    ///
    /// A password in the URI is refused: command lines are visible to every user of the machine. Passwords are given
    /// on standard input or in `PGPASSWORD` instead. So is any parameter but `host` and `sslmode=disable`: TLS to the
    /// server is not implemented yet, so only sockets and the loopback interface are accepted.
    public init(dsn: String, defaultUser: String) throws(DSNError) {
        guard let components = URLComponents(string: dsn), ["postgresql", "postgres"].contains(components.scheme ?? "") else {
            throw DSNError(description: "not a PostgreSQL connection URI (postgresql://user@host:port/database): \(Self.redacted(dsn))")
        }
        guard components.password == nil else {
            throw DSNError(
                description:
                    "the connection URI holds a password, which other users can read on a command line: remove it and give it on standard input (--password-stdin) or in PGPASSWORD"
            )
        }
        var host = components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? ""
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("host", let value?): host = value
            case ("sslmode", "disable"): continue
            default: throw DSNError(description: "unsupported connection parameter \(item.name) (only host and sslmode=disable are)")
            }
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw DSNError(description: "port \(port) is out of range") }
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? defaultUser
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? username : path
        guard !database.contains("/") else { throw DSNError(description: "the database name cannot contain /") }
        let address: Address
        if host.isEmpty || host.hasPrefix("/") {
            address = .unixSocket(path: "\(host.isEmpty ? "/var/run/postgresql" : host)/.s.PGSQL.\(port)")
        } else if ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) {
            address = .tcp(host: host == "[::1]" ? "::1" : host, port: port)
        } else {
            throw DSNError(
                description: "TLS to a sync server is not implemented yet: connect through a Unix socket or the loopback interface, not \(host)")
        }
        self.init(address: address, username: username, database: database)
    }

    /// A connection URI with its password part, if any, replaced (for messages).
    private static func redacted(_ dsn: String) -> String {
        guard let at = dsn.firstIndex(of: "@"), let scheme = dsn.range(of: "://"), scheme.upperBound < at else { return dsn }
        let userInfo = dsn[scheme.upperBound..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return dsn }
        return String(dsn[..<colon]) + ":…" + String(dsn[at...])
    }
}

extension ServerEndpoint {
    /// The endpoint as a connection URI that ``init(dsn:defaultUser:)`` reads back to the same endpoint.
    public var dsn: String {
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        let name = database.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? database
        switch address {
        case .tcp(let host, let port):
            return "postgresql://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(name)"
        case .unixSocket(let path):
            let file = (path as NSString).lastPathComponent
            let port = file.hasPrefix(".s.PGSQL.") ? String(file.dropFirst(".s.PGSQL.".count)) : "5432"
            let folder = (path as NSString).deletingLastPathComponent
            let encoded = folder.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))) ?? folder
            return "postgresql://\(user)@localhost:\(port)/\(name)?host=\(encoded)"
        }
    }
}
