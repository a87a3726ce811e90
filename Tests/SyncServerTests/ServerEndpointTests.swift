import Testing

@testable import SyncServer

/// Connection URIs as libpq reads them, and the ones refused: a password on the command line, a remote host without
/// verified TLS, parameters this Coffer does not honour.
@Suite("Sync server: connection URIs")
struct ServerEndpointTests {
    private func endpoint(_ dsn: String) throws(ServerEndpoint.DSNError) -> ServerEndpoint { try ServerEndpoint(dsn: dsn, defaultUser: "me") }

    @Test func socketsAndLoopbackHostsAreRead() throws {
        #expect(
            try endpoint("postgresql:///coffer")
                == ServerEndpoint(address: .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"), username: "me", database: "coffer"))
        #expect(
            try endpoint("postgres://admin@%2Ftmp%2Fpg:6543/sync")
                == ServerEndpoint(address: .unixSocket(path: "/tmp/pg/.s.PGSQL.6543"), username: "admin", database: "sync"))
        #expect(
            try endpoint("postgresql://admin@/sync?host=/run/pg&sslmode=disable")
                == ServerEndpoint(address: .unixSocket(path: "/run/pg/.s.PGSQL.5432"), username: "admin", database: "sync"))
        #expect(try endpoint("postgresql://127.0.0.1:5433") == ServerEndpoint(address: .tcp(host: "127.0.0.1", port: 5433), username: "me", database: "me"))
        #expect(try endpoint("postgresql://u@localhost/d") == ServerEndpoint(address: .tcp(host: "localhost", port: 5432), username: "u", database: "d"))
    }

    @Test func remoteHostsAreReachedWithVerifiedTLS() throws {
        let remote = try endpoint("postgresql://sync@db.example.com/coffer")
        #expect(remote == ServerEndpoint(address: .tcp(host: "db.example.com", port: 5432), username: "sync", database: "coffer", tls: .init()))
        #expect(remote.dsn == "postgresql://sync@db.example.com:5432/coffer?sslmode=verify-full")
        let privateCA = try endpoint("postgresql://sync@db.example.com:6432/coffer?sslmode=verify-full&sslrootcert=/etc/coffer/ca%20root.pem")
        #expect(privateCA.tls == ServerEndpoint.TLS(rootCertificatesFile: "/etc/coffer/ca root.pem"))
        #expect(try endpoint(privateCA.dsn) == privateCA)
        // The loopback interface takes TLS when asked.
        #expect(try endpoint("postgresql://u@localhost/d?sslmode=verify-full").tls == .init())
        #expect(try endpoint("postgresql://u@localhost/d").tls == nil)
    }

    @Test func passwordsUnverifiedTLSAndOtherParametersAreRefused() throws {
        for dsn in [
            "postgresql://admin:hunter2@localhost/sync", "postgresql://db.example.com/sync?sslmode=disable",
            "postgresql://db.example.com/sync?sslmode=require", "postgresql://db.example.com/sync?sslmode=verify-ca",
            "postgresql://db.example.com/sync?sslmode=prefer", "postgresql://localhost/sync?sslmode=require",
            "postgresql://10.0.0.5/sync", "postgresql://[2001:db8::1]/sync", "postgresql://localhost/sync?sslrootcert=/ca.pem",
            "postgresql://db.example.com/sync?sslrootcert=ca.pem", "postgresql:///sync?sslmode=verify-full",
            "postgresql://localhost/sync?application_name=x", "mysql://localhost/db", "postgresql://localhost:70000/db", "not a uri",
        ] {
            do {
                _ = try endpoint(dsn)
                Issue.record("accepted \(dsn)")
            } catch {
                #expect(!error.description.contains("hunter2"), "\(error.description)")
            }
        }
    }
}
