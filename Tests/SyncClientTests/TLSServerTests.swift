import Crypto
import Foundation
import PostgresFixture
import PostgresNIO
import SyncClient
import Testing
import X509

@testable import SyncServer

/// A sync server on TCP with TLS: devices reach it through CofferTLS's client configuration, verifying the server's
/// chain against the account's authority (`sslrootcert`) and its name; the traffic is encrypted; a server whose
/// certificate another authority issued is refused before the password is used.
@Suite("Sync: TLS to the server", .timeLimit(.minutes(10)))
struct TLSServerTests {
    /// An authority and the server's certificate for `localhost`, made for one test.
    private struct Authority {
        let key = P256.Signing.PrivateKey()
        let name: DistinguishedName
        let certificate: Certificate

        init(_ commonName: String) throws {
            name = try DistinguishedName { CommonName(commonName) }
            certificate = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: Date() - 3600,
                notValidAfter: Date() + 86_400, issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true))
                },
                issuerPrivateKey: .init(key))
        }

        /// A server certificate for `host` (PEM) and its key (PEM).
        func server(_ host: String) throws -> (certificatePEM: String, keyPEM: String) {
            let key = P256.Signing.PrivateKey()
            let leaf = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: Date() - 3600,
                notValidAfter: Date() + 86_400, issuer: name, subject: try DistinguishedName { CommonName(host) },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames([.dnsName(host)])
                },
                issuerPrivateKey: .init(self.key))
            return (try leaf.serializeAsPEM().pemString, key.pemRepresentation)
        }

        /// Writes the authority's certificate to `folder` and returns the file's path.
        func write(to folder: URL) throws -> String {
            let url = folder.appendingPathComponent("\(UUID().uuidString).pem")
            try Data(try certificate.serializeAsPEM().pemString.utf8).write(to: url)
            return url.path
        }
    }

    /// A new folder only this user can enter.
    private static func privateFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-sync-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        return folder
    }

    /// The account's endpoint on `server` over TCP to `localhost` with verified TLS, trusting `authority` (written to
    /// `folder`), and that authority's file.
    private static func endpoint(of server: TestSyncServer, trusting authority: Authority, in folder: URL) throws -> (ServerEndpoint, String) {
        let caFile = try authority.write(to: folder)
        let dsn = "postgresql://\(server.account.role)@localhost:\(server.cluster.port)/\(server.cluster.database)?sslmode=verify-full&sslrootcert=\(caFile)"
        return (try ServerEndpoint(dsn: dsn, defaultUser: ""), caFile)
    }

    @Test func devicesSyncOverVerifiedTLS() async throws {
        let authority = try Authority("Coffer sync test authority")
        let server = try await TestSyncServer.start(tls: try authority.server("localhost"))
        defer { server.stop() }
        let folder = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (endpoint, caFile) = try Self.endpoint(of: server, trusting: authority, in: folder)
        #expect(endpoint.tls == ServerEndpoint.TLS(rootCertificatesFile: caFile))

        // The account's traffic is encrypted.
        let connection = try await SyncServerConnection.connect(to: endpoint, password: server.account.password)
        let encrypted = try await connection.connection.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: connection.logger)
            .collect().first?.decode(Bool.self)
        await connection.close()
        #expect(encrypted == true)

        // Two devices sync through it.
        let laptop = try TestDevice()
        defer { laptop.removeFolder() }
        try laptop.add(genp("tls", "token", ["sync": true, "v_Data": secret("over TLS")]))
        let recovery = try await laptop.sync.setUp(server: endpoint, password: server.account.password, deviceName: "laptop")
        let desktop = try TestDevice()
        defer { desktop.removeFolder() }
        try await desktop.sync.join(
            server: endpoint, password: server.account.password, deviceName: "desktop", recoveryKey: try RecoveryKey(text: recovery.text))
        #expect(try await laptop.sync.syncNow().sent == 1)
        #expect(try await desktop.sync.syncNow().applied == 1)
        #expect(try desktop.data(genp("tls", "token", ["sync": true])).get() == Data("over TLS".utf8))
        #expect(try desktop.sync.status().server == endpoint.dsn)
    }

    @Test func aServerAnotherAuthorityVouchesForIsRefused() async throws {
        let authority = try Authority("Coffer sync test authority")
        let impostor = try Authority("Someone else's authority")
        let server = try await TestSyncServer.start(tls: try impostor.server("localhost"))
        defer { server.stop() }
        let folder = try Self.privateFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (endpoint, _) = try Self.endpoint(of: server, trusting: authority, in: folder)
        do {
            let connection = try await SyncServerConnection.connect(to: endpoint, password: server.account.password)
            await connection.close()
            Issue.record("connected to a server whose certificate the account's authority did not issue")
        } catch {
            #expect(error.description.contains("TLS"), "\(error.description)")
            #expect(!error.description.contains(server.account.password))
        }
        // No session of the account ever reached the server.
        let sessions = try await server.asOperator { connection in
            try await connection.connection.query(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = \(server.account.role)", logger: connection.logger
            ).collect().first?.decode(Int.self) ?? -1
        }
        #expect(sessions == 0)
        let device = try TestDevice()
        defer { device.removeFolder() }
        await #expect(throws: SyncError.self) {
            _ = try await device.sync.setUp(server: endpoint, password: server.account.password, deviceName: "laptop")
        }
        #expect(try device.sync.isSetUp == false)
    }
}
