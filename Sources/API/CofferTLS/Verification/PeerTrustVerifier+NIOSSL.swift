import Foundation
import NIOCore
import NIOSSL
import Security

#if canImport(Glibc)
import Glibc
#endif

extension PeerTrustVerifier {
    /// The verifier as swift-nio-ssl's custom verification callback: give it to `NIOSSLClientHandler` or
    /// `NIOSSLServerHandler` (`customVerificationCallbackWithMetadata:`), or use ``clientHandler(context:)`` and
    /// ``serverHandler(context:)``, which do. It replaces BoringSSL's chain verification; the handler's peer
    /// validated chain (`peerValidatedCertificateChain`) is then the chain Coffer's evaluation built.
    ///
    /// swift-nio-ssl calls it only when the context's `certificateVerification` is not `.none` (the configurations
    /// of ``AppTransportSecurity`` keep it on). It returns at once; the promise is completed from the evaluation's
    /// thread, so the event loop is never blocked.
    public var callback: NIOSSLCustomVerificationCallbackWithMetadata {
        { certificates, promise in verify(certificates, promise) }
    }

    /// Verifies the certificates swift-nio-ssl received (leaf first) and completes `promise` with the outcome.
    public func verify(_ certificates: [NIOSSLCertificate], _ promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>) {
        var chain: [SecCertificate] = []
        for (index, certificate) in certificates.enumerated() {
            guard let der = try? certificate.toDERBytes(), let parsed = SecCertificateCreateWithData(nil, Data(der) as NSData) else {
                let failure = PeerTrustFailure(.unreadableCertificate(index: index), "certificate \(index) the peer presented cannot be read")
                onOutcome?(.rejected(failure))
                promise.succeed(.failed)
                return
            }
            chain.append(parsed)
        }
        evaluate(chain) { outcome in
            guard case .trusted(let trusted, _) = outcome else {
                promise.succeed(.failed)
                return
            }
            let validated = trusted.compactMap { try? NIOSSLCertificate(bytes: Array(SecCertificateCopyData($0) as Data), format: .der) }
            promise.succeed(.certificateVerified(VerificationMetadata(validated.isEmpty ? nil : ValidatedCertificateChain(validated))))
        }
    }

    /// A client handler for `context` that verifies the server with this verifier: pinning in one line,
    /// `try PeerTrustVerifier(peer: .server(hostname: host), pins: pins).clientHandler(context: context)`.
    ///
    /// The host name of ``Peer/server(hostname:)`` is sent as the server name (SNI) unless it is an IP address,
    /// which SNI cannot carry.
    public func clientHandler(context: NIOSSLContext) throws -> NIOSSLClientHandler {
        try NIOSSLClientHandler(context: context, serverHostname: serverNameIndication, customVerificationCallbackWithMetadata: callback)
    }

    /// A server handler for `context` that verifies clients' certificates with this verifier (mutual TLS; the
    /// context must ask for them, as ``AppTransportSecurity/serverConfiguration(identity:requireClientCertificate:)``
    /// does with `requireClientCertificate`).
    public func serverHandler(context: NIOSSLContext) -> NIOSSLServerHandler {
        NIOSSLServerHandler(context: context, customVerificationCallbackWithMetadata: callback)
    }

    /// The name to send as SNI: the server's host name, unless it is an IP address.
    var serverNameIndication: String? {
        guard case .server(let hostname?) = peer else { return nil }
        var v4 = in_addr()
        var v6 = in6_addr()
        let isAddress = inet_pton(AF_INET, hostname, &v4) == 1 || inet_pton(AF_INET6, hostname, &v6) == 1
        return isAddress ? nil : hostname
    }
}
