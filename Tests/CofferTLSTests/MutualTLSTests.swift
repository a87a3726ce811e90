import CofferTLS
import Crypto
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
@_spi(Testing) import Security
import Testing
import X509

/// Mutual TLS with a client identity from the keychain: a certificate issued by the test CA for a key that never
/// leaves the keychain (`kSecAttrTokenIDSecureEnclave`, in an embedded keychain in a fresh folder), which signs the
/// handshake through the keychain; the server requires a client certificate and verifies it with Coffer's
/// evaluation for clients.
@Suite(.timeLimit(.minutes(10))) struct MutualTLSTests {
    let pki: TestPKI
    let server: ServerCredential

    init() throws {
        pki = try TestPKI()
        server = try ServerCredential(pki, name: "mtls server")
    }

    /// Runs `body` with a fresh embedded keychain as the `Security` module's keychain; removes its folder after.
    private func withFreshKeychain<Result>(_ body: () async throws -> Result) async throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-tls-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await SecurityTesting.withKeychain(at: folder, body)
    }

    /// A key that never leaves the keychain, and an identity of it with a client certificate from the test CA.
    private func keychainIdentity() throws -> (SecIdentity, SecCertificate) {
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("tls.client".utf8)],
        ]
        var error: Unmanaged<CFError>?
        let key = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, &error), "\(String(describing: error))")
        #expect(SecKeyCopyExternalRepresentation(key, nil) == nil)
        let publicKey = try #require(SecKeyCopyPublicKey(key))
        let x963 = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
        let certificate = try pki.leaf("keychain client", publicKey: .init(P256.Signing.PublicKey(x963Representation: x963)), server: false)
        let secCertificate = TestPKI.secCertificate(certificate)
        let identity = try #require(SecIdentityCreate(nil, secCertificate, key))
        return (identity, secCertificate)
    }

    private func withServer<Result>(
        clientOutcomes: Recorder<PeerVerificationOutcome>, _ body: (EventLoopGroup, TestTLSServer) async throws -> Result
    ) async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let configuration = AppTransportSecurity.serverConfiguration(
            certificateChain: server.certificateChain, privateKey: server.privateKey, requireClientCertificate: true)
        let clientVerifier = PeerTrustVerifier(peer: .client, anchors: .only([pki.anchor])) { clientOutcomes.record($0) }
        let tlsServer: TestTLSServer
        do {
            tlsServer = try await TestTLSServer(group: group, configuration: configuration, clientVerifier: clientVerifier)
        } catch {
            try await group.shutdownGracefully()
            throw error
        }
        do {
            let result = try await body(group, tlsServer)
            await tlsServer.stop()
            try await group.shutdownGracefully()
            return result
        } catch {
            await tlsServer.stop()
            try await group.shutdownGracefully()
            throw error
        }
    }

    private var serverVerifier: PeerTrustVerifier { PeerTrustVerifier(peer: .server(hostname: "localhost"), anchors: .only([pki.anchor])) }

    @Test(arguments: [TLSVersion.tlsv12, .tlsv13])
    func aKeyThatNeverLeavesTheKeychainSignsTheClientHandshake(version: TLSVersion) async throws {
        try await withFreshKeychain {
            let (secIdentity, clientCertificate) = try keychainIdentity()
            let identity = try KeychainTLSIdentity(secIdentity)
            #expect(identity.signatureAlgorithms == [.ecdsaSecp256R1Sha256])
            #expect(
                identity.certificateChain == [try TestPKI.nioCertificate(Certificate(derEncoded: Array(SecCertificateCopyData(clientCertificate) as Data)))])
            var configuration = AppTransportSecurity.clientConfiguration(identity: identity)
            configuration.maximumTLSVersion = version

            let clientOutcomes = Recorder<PeerVerificationOutcome>()
            let (outcome, handshakes) = try await withServer(clientOutcomes: clientOutcomes) { group, server in
                let outcome = try await connect(group: group, port: server.port, configuration: configuration, verifier: serverVerifier)
                return (outcome, server.handshakes.all)
            }
            #expect(outcome.error == nil, "\(String(describing: outcome.error))")
            #expect(outcome.reply == "pong:ping")
            #expect(outcome.version == version)
            #expect(handshakes.count == 1)
            #expect((try? handshakes.first?.get()) != nil)
            #expect(clientOutcomes.all == [.trusted(chain: [clientCertificate, pki.anchor], pins: nil)])
        }
    }

    @Test func aServerRequiringAClientCertificateRefusesAClientWithout() async throws {
        let clientOutcomes = Recorder<PeerVerificationOutcome>()
        let (outcome, handshakes) = try await withServer(clientOutcomes: clientOutcomes) { group, server in
            let outcome = try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(), verifier: serverVerifier)
            return (outcome, server.handshakes.all)
        }
        #expect(outcome.reply == nil)
        #expect(outcome.error != nil)
        #expect(handshakes.count == 1)
        guard case .failure(let error) = handshakes.first else {
            Issue.record("the server's handshake did not fail: \(handshakes)")
            return
        }
        #expect(error.description.contains("PEER_DID_NOT_RETURN_A_CERTIFICATE"), "\(error)")
        #expect(clientOutcomes.all.isEmpty)
    }

    @Test func aClientCertificateFromAnotherCAIsRefusedByTheServer() async throws {
        try await withFreshKeychain {
            // The client's certificate is issued by a CA the server does not trust.
            let stranger = try TestPKI()
            let (secIdentity, _) = try keychainIdentity()
            var copied: SecKey?
            #expect(SecIdentityCopyPrivateKey(secIdentity, &copied) == errSecSuccess)
            let key = try #require(copied)
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let x963 = try #require(SecKeyCopyExternalRepresentation(publicKey, nil) as Data?)
            let foreign = try stranger.leaf("foreign client", publicKey: .init(P256.Signing.PublicKey(x963Representation: x963)), server: false)
            let foreignIdentity = try #require(SecIdentityCreate(nil, TestPKI.secCertificate(foreign), key))
            let configuration = AppTransportSecurity.clientConfiguration(identity: try KeychainTLSIdentity(foreignIdentity))

            let clientOutcomes = Recorder<PeerVerificationOutcome>()
            let (outcome, handshakes) = try await withServer(clientOutcomes: clientOutcomes) { group, server in
                let outcome = try await connect(group: group, port: server.port, configuration: configuration, verifier: serverVerifier)
                return (outcome, server.handshakes.all)
            }
            #expect(outcome.reply == nil)
            #expect(handshakes.count == 1)
            guard case .failure(let error) = handshakes.first else {
                Issue.record("the server's handshake did not fail: \(handshakes)")
                return
            }
            #expect(error.description.contains("CERTIFICATE_VERIFY_FAILED"), "\(error)")
            #expect(clientOutcomes.all.map(\.failure?.reason) == [.untrusted(status: errSecCreateChainFailed)])
        }
    }
}
