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
    /// on standard input or in `PGPASSWORD` instead.
    ///
    /// A server on another machine is reached with TLS, always, its certificate verified as libpq's
    /// `sslmode=verify-full` does (chain and host name), against `sslrootcert` (a PEM file of authorities) or the
    /// system's authorities. A socket or the loopback interface is reached without TLS unless `sslmode=verify-full`
    /// asks for it. The other modes (`disable` for another machine, `allow`, `prefer`, `require`, `verify-ca`) would
    /// let someone on the network read or answer in the server's place, and are refused; so are other parameters.
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
        var sslMode: String?
        var rootCertificatesFile: String?
        for item in components.queryItems ?? [] {
            switch (item.name, item.value) {
            case ("host", let value?): host = value
            case ("sslmode", let value?) where ["disable", "verify-full"].contains(value): sslMode = value
            case ("sslmode", let value?):
                throw DSNError(
                    description: "sslmode=\(value) does not verify who answers: use sslmode=verify-full (with sslrootcert for a private authority)")
            case ("sslrootcert", let value?) where value.hasPrefix("/"): rootCertificatesFile = value
            case ("sslrootcert", _): throw DSNError(description: "sslrootcert must be an absolute path to a PEM file of certificate authorities")
            default:
                throw DSNError(description: "unsupported connection parameter \(item.name) (host, sslmode=verify-full or disable, and sslrootcert are)")
            }
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { throw DSNError(description: "port \(port) is out of range") }
        let username = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? defaultUser
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? username : path
        guard !database.contains("/") else { throw DSNError(description: "the database name cannot contain /") }
        let address: Address
        var tls: TLS?
        if host.isEmpty || host.hasPrefix("/") {
            guard sslMode != "verify-full" else { throw DSNError(description: "a Unix socket carries no TLS: remove sslmode=verify-full") }
            address = .unixSocket(path: "\(host.isEmpty ? "/var/run/postgresql" : host)/.s.PGSQL.\(port)")
        } else {
            let loopback = ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host)
            if !loopback, sslMode == "disable" {
                throw DSNError(
                    description: "sslmode=disable would send the account's traffic to \(host) unencrypted: a server on another machine is reached with TLS")
            }
            if sslMode == "verify-full" || !loopback {
                guard !Self.isAddressLiteral(host) else {
                    throw DSNError(
                        description: "TLS verifies the server's name, and \(host) is an address: use the DNS name the server's certificate carries")
                }
                tls = TLS(rootCertificatesFile: rootCertificatesFile)
            }
            address = .tcp(host: host == "[::1]" ? "::1" : host, port: port)
        }
        if tls == nil, rootCertificatesFile != nil { throw DSNError(description: "sslrootcert is for TLS: add sslmode=verify-full") }
        self.init(address: address, username: username, database: database, tls: tls)
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    private static func isAddressLiteral(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare.contains(":") || bare.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
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
    /// What a query value keeps unencoded.
    private static let queryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))

    /// The endpoint as a connection URI that ``init(dsn:defaultUser:)`` reads back to the same endpoint.
    public var dsn: String {
        let user = username.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? username
        let name = database.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? database
        switch address {
        case .tcp(let host, let port):
            var uri = "postgresql://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(name)"
            if let tls {
                uri += "?sslmode=verify-full"
                if let file = tls.rootCertificatesFile {
                    uri += "&sslrootcert=" + (file.addingPercentEncoding(withAllowedCharacters: Self.queryValueAllowed) ?? file)
                }
            }
            return uri
        case .unixSocket(let path):
            let file = (path as NSString).lastPathComponent
            let port = file.hasPrefix(".s.PGSQL.") ? String(file.dropFirst(".s.PGSQL.".count)) : "5432"
            let folder = (path as NSString).deletingLastPathComponent
            let encoded = folder.addingPercentEncoding(withAllowedCharacters: Self.queryValueAllowed) ?? folder
            return "postgresql://\(user)@localhost:\(port)/\(name)?host=\(encoded)"
        }
    }
}
