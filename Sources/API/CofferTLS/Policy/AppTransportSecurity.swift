import NIOSSL

/// App Transport Security's defaults for swift-nio-ssl: what Apple platforms require of an app's connections,
/// given to a Swift server or client on Linux as a ready `TLSConfiguration`.
///
/// - TLS 1.2 at least (``minimumTLSVersion``); TLS 1.3 is negotiated when both sides have it.
/// - Forward secrecy only: for TLS 1.2, the ECDHE suites with AES-GCM or ChaCha20-Poly1305 (``cipherSuites``); TLS
///   1.3's suites are all forward secret and are not configurable in swift-nio-ssl.
/// - SHA-2 signatures only in the handshake (``signatureAlgorithms``): no SHA-1.
/// - Post-quantum hybrid key exchange first (``keyExchangeGroups``: X25519MLKEM768, as Apple's systems offer since iOS 26
///   and macOS 26), so a recorded session cannot be decrypted later with a quantum computer; X25519 and the NIST
///   curves after it, for peers without it.
/// - Certificate verification on. Pass a ``PeerTrustVerifier`` to the handler to verify with Coffer's trust
///   evaluation (and pins); without one, swift-nio-ssl verifies with BoringSSL against the system's roots.
///
/// ATS's own list also allows ECDHE suites with AES-CBC; these defaults leave CBC out (TLS 1.2's CBC suites
/// MAC then encrypt, the root of the padding-oracle attacks), keeping only the AEAD suites. What ATS checks and these
/// defaults do not (certificate transparency, minimum key sizes of the peer's certificates) is listed in the
/// documentation's "What CofferTLS does not do".
public enum AppTransportSecurity {
    /// The oldest protocol version accepted: TLS 1.2.
    public static let minimumTLSVersion: TLSVersion = .tlsv12

    /// The TLS 1.2 cipher suites: ECDHE key agreement (forward secret) with an AEAD cipher, ECDSA before RSA and
    /// AES-256 before AES-128 before ChaCha20.
    public static let cipherSuites: [NIOTLSCipher] = [
        .TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        .TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        .TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
    ]

    /// The handshake signatures accepted from the peer: ECDSA, RSA-PSS and RSA PKCS#1 v1.5 with SHA-256 or longer,
    /// and Ed25519. SHA-1 is refused.
    public static let signatureAlgorithms: [SignatureAlgorithm] = [
        .ecdsaSecp256R1Sha256, .ecdsaSecp384R1Sha384, .ecdsaSecp521R1Sha512,
        .rsaPssRsaeSha256, .rsaPssRsaeSha384, .rsaPssRsaeSha512,
        .rsaPkcs1Sha256, .rsaPkcs1Sha384, .rsaPkcs1Sha512,
        .ed25519,
    ]

    /// The key-exchange groups offered and accepted, in order of preference: the hybrid X25519MLKEM768 (ML-KEM-768
    /// with X25519, IANA 0x11EC), then X25519, P-256 and P-384. A client sends key shares for the first two, so a
    /// server without the hybrid costs no extra round trip.
    public static let keyExchangeGroups: [NIOTLSCurve] = [.x25519_MLKEM768, .x25519, .secp256r1, .secp384r1]

    /// A client configuration with ATS's defaults: full verification of the server's certificate and host name.
    /// With `identity`, the client presents it when the server asks for a certificate (mutual TLS).
    public static func clientConfiguration(identity: KeychainTLSIdentity? = nil) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        apply(to: &configuration)
        configuration.certificateVerification = .fullVerification
        if let identity { identity.present(in: &configuration) }
        return configuration
    }

    /// A server configuration with ATS's defaults presenting `identity`. With `requireClientCertificate`, the
    /// server asks every client for a certificate and refuses one without (mutual TLS); verify it with a
    /// ``PeerTrustVerifier`` for clients (``PeerTrustVerifier/serverHandler(context:)``).
    public static func serverConfiguration(identity: KeychainTLSIdentity, requireClientCertificate: Bool = false) -> TLSConfiguration {
        serverConfiguration(
            certificateChain: identity.certificateChain.map { .certificate($0) }, privateKey: .privateKey(identity.privateKey),
            requireClientCertificate: requireClientCertificate)
    }

    /// ``serverConfiguration(identity:requireClientCertificate:)`` for a chain and key swift-nio-ssl already holds
    /// (files, PEM).
    public static func serverConfiguration(
        certificateChain: [NIOSSLCertificateSource], privateKey: NIOSSLPrivateKeySource, requireClientCertificate: Bool = false
    ) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: certificateChain, privateKey: privateKey)
        apply(to: &configuration)
        // A server has no host name to check a client's certificate against.
        configuration.certificateVerification = requireClientCertificate ? .noHostnameVerification : .none
        return configuration
    }

    /// Sets the protocol versions, cipher suites, signature algorithms and key-exchange groups of ATS on
    /// `configuration`.
    public static func apply(to configuration: inout TLSConfiguration) {
        configuration.minimumTLSVersion = minimumTLSVersion
        configuration.curves = keyExchangeGroups
        configuration.maximumTLSVersion = nil
        configuration.cipherSuiteValues = cipherSuites
        configuration.verifySignatureAlgorithms = signatureAlgorithms
        configuration.renegotiationSupport = .none
    }
}
