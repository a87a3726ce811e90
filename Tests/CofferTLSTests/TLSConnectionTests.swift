import CofferTLS
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import Security
import Testing

/// A client with App Transport Security's defaults and Coffer's verification (trust evaluation against the test CA,
/// then pins) against local TLS servers on 127.0.0.1 presenting a pinned, an unpinned and an expired chain, and
/// servers that offer only what ATS refuses.
@Suite(.timeLimit(.minutes(10))) struct TLSConnectionTests {
    let pki: TestPKI
    let pinned: ServerCredential
    let unpinned: ServerCredential
    let expired: ServerCredential
    let backup: SPKIPin
    let later = Date() + 30 * 86_400

    init() throws {
        pki = try TestPKI()
        pinned = try ServerCredential(pki, name: "pinned")
        unpinned = try ServerCredential(pki, name: "unpinned")
        expired = try ServerCredential(pki, name: "expired", expired: true)
        backup = try SPKIPin(certificate: ServerCredential(pki, name: "backup, not deployed").secCertificate)
    }

    /// Runs `body` with an event loop group and a server presenting `credential` with `configure` applied to ATS's
    /// server configuration; shuts both down afterwards.
    func withServer<Result>(
        _ credential: ServerCredential, configure: (inout TLSConfiguration) -> Void = { _ in },
        _ body: (EventLoopGroup, TestTLSServer) async throws -> Result
    ) async throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var configuration = AppTransportSecurity.serverConfiguration(certificateChain: credential.certificateChain, privateKey: credential.privateKey)
        configure(&configuration)
        let server: TestTLSServer
        do {
            server = try await TestTLSServer(group: group, configuration: configuration)
        } catch {
            try await group.shutdownGracefully()
            throw error
        }
        do {
            let result = try await body(group, server)
            await server.stop()
            try await group.shutdownGracefully()
            return result
        } catch {
            await server.stop()
            try await group.shutdownGracefully()
            throw error
        }
    }

    func verifier(pins: PinSet?, anchors: TrustAnchors? = nil, outcomes: Recorder<PeerVerificationOutcome>) -> PeerTrustVerifier {
        PeerTrustVerifier(peer: .server(hostname: "localhost"), anchors: anchors ?? .only([pki.anchor]), pins: pins) { outcomes.record($0) }
    }

    @Test func aPinnedServerIsReachedWithATSDefaultsOverTLS13() async throws {
        let pin = try SPKIPin(certificate: pinned.secCertificate)
        let pins = try PinSet(pins: [pin, backup], expiration: later)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(pinned) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: pins, outcomes: outcomes))
        }
        #expect(outcome.error == nil)
        #expect(outcome.reply == "pong:ping")
        #expect(outcome.version == .tlsv13)
        #expect(outcomes.all == [.trusted(chain: [pinned.secCertificate, pki.anchor], pins: .matched(pin, chainIndex: 0))])
    }

    @Test func anUnpinnedServerIsRefusedForItsPins() async throws {
        let pins = try PinSet(pins: [SPKIPin(certificate: pinned.secCertificate), backup], expiration: later)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(unpinned) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: pins, outcomes: outcomes))
        }
        #expect(outcome.reply == nil)
        #expect(isHandshakeFailure(outcome.error, reason: "CERTIFICATE_VERIFY_FAILED"), "\(String(describing: outcome.error))")
        #expect(outcomes.all.map(\.failure?.reason) == [.pinMismatch])
    }

    @Test func anExpiredChainIsRefusedByTrustEvaluationEvenWhenPinned() async throws {
        let pins = try PinSet(pins: [SPKIPin(certificate: expired.secCertificate), backup], expiration: later)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(expired) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: pins, outcomes: outcomes))
        }
        #expect(outcome.reply == nil)
        #expect(isHandshakeFailure(outcome.error, reason: "CERTIFICATE_VERIFY_FAILED"), "\(String(describing: outcome.error))")
        #expect(outcomes.all.map(\.failure?.reason) == [.untrusted(status: errSecCertificateExpired)])
    }

    @Test func aChainToAnAnchorNotTrustedIsRefused() async throws {
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(pinned) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: nil, anchors: .system, outcomes: outcomes))
        }
        #expect(outcome.reply == nil)
        // The test CA is no system anchor, and the server did not send it: its issuer is missing.
        #expect(outcomes.all.map(\.failure?.reason) == [.untrusted(status: errSecCreateChainFailed)])
    }

    @Test func theBackupPinLetsARotatedKeyThrough() async throws {
        // The server moved to the key that was the backup pin.
        let primary = try SPKIPin(certificate: pinned.secCertificate)
        let rotated = try SPKIPin(certificate: unpinned.secCertificate)
        let pins = try PinSet(pins: [primary, rotated], expiration: later)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(unpinned) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: pins, outcomes: outcomes))
        }
        #expect(outcome.reply == "pong:ping")
        #expect(outcomes.all == [.trusted(chain: [unpinned.secCertificate, pki.anchor], pins: .matched(rotated, chainIndex: 0))])
    }

    @Test func aPinnedCAKeyMatchesEveryServerItIssues() async throws {
        let caPin = try SPKIPin(certificate: pki.anchor)
        let pins = try PinSet(pins: [caPin, backup], expiration: later)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(unpinned) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: pins, outcomes: outcomes))
        }
        #expect(outcome.reply == "pong:ping")
        #expect(outcomes.all == [.trusted(chain: [unpinned.secCertificate, pki.anchor], pins: .matched(caPin, chainIndex: 1))])
    }

    @Test func anExpiredPinSetFailsOpen() async throws {
        let expiredAt = Date() - 60
        let pins = try PinSet(pins: [SPKIPin(certificate: pinned.secCertificate), backup], expiration: expiredAt)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(unpinned) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: pins, outcomes: outcomes))
        }
        #expect(outcome.reply == "pong:ping")
        #expect(outcomes.all == [.trusted(chain: [unpinned.secCertificate, pki.anchor], pins: .notEnforced(expiredAt: expiredAt))])
    }

    @Test func aTLS11OnlyServerIsRefusedBeforeAnyCertificateIsLookedAt() async throws {
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(
            pinned,
            configure: { configuration in
                configuration.minimumTLSVersion = .tlsv11
                configuration.maximumTLSVersion = .tlsv11
                configuration.cipherSuites = defaultCipherSuites
            }
        ) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: nil, outcomes: outcomes))
        }
        #expect(outcome.reply == nil)
        // The server answers the client's TLS 1.2+ hello with a protocol_version alert.
        #expect(isHandshakeFailure(outcome.error, reason: "TLSV1_ALERT_PROTOCOL_VERSION"), "\(String(describing: outcome.error))")
        #expect(outcomes.all.isEmpty)
    }

    @Test func aTLS12ServerIsAcceptedWithAForwardSecretSuite() async throws {
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(pinned, configure: { $0.maximumTLSVersion = .tlsv12 }) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: nil, outcomes: outcomes))
        }
        #expect(outcome.reply == "pong:ping")
        #expect(outcome.version == .tlsv12)
        #expect(outcomes.all.count == 1)
    }

    @Test func anRSAServerIsReachedOverTLS12WithECDHE() async throws {
        let rsa = try ServerCredential(pki, name: "rsa", rsa: true)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(rsa, configure: { $0.maximumTLSVersion = .tlsv12 }) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: nil, outcomes: outcomes))
        }
        #expect(outcome.reply == "pong:ping")
        #expect(outcome.version == .tlsv12)
    }

    @Test func anRSAServerWithoutForwardSecrecyIsRefused() async throws {
        let rsa = try ServerCredential(pki, name: "rsa", rsa: true)
        let outcomes = Recorder<PeerVerificationOutcome>()
        let outcome = try await withServer(
            rsa,
            configure: { configuration in
                configuration.maximumTLSVersion = .tlsv12
                // RSA key exchange only (no forward secrecy): ATS's client does not offer it.
                configuration.cipherSuiteValues = [.TLS_RSA_WITH_AES_128_GCM_SHA256, .TLS_RSA_WITH_AES_256_GCM_SHA384]
            }
        ) { group, server in
            try await connect(
                group: group, port: server.port, configuration: AppTransportSecurity.clientConfiguration(),
                verifier: verifier(pins: nil, outcomes: outcomes))
        }
        #expect(outcome.reply == nil)
        // No cipher suite in common: the server answers with a handshake_failure alert.
        #expect(isHandshakeFailure(outcome.error, reason: "SSLV3_ALERT_HANDSHAKE_FAILURE"), "\(String(describing: outcome.error))")
        #expect(outcomes.all.isEmpty)
    }

    @Test func theClientConfigurationHasATSDefaults() {
        let configuration = AppTransportSecurity.clientConfiguration()
        #expect(configuration.minimumTLSVersion == .tlsv12)
        #expect(configuration.maximumTLSVersion == nil)
        #expect(configuration.cipherSuiteValues == AppTransportSecurity.cipherSuites)
        #expect(configuration.verifySignatureAlgorithms == AppTransportSecurity.signatureAlgorithms)
        guard case .fullVerification = configuration.certificateVerification else {
            Issue.record("certificate verification is \(configuration.certificateVerification)")
            return
        }
    }
}
