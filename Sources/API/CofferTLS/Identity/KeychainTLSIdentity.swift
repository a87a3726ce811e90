import CertificateParsing
import Foundation
import NIOPosix
import NIOSSL
import Security

/// A keychain identity (a certificate and its private key) as what a TLS client or server presents: the certificate
/// chain for swift-nio-ssl, and a private key that signs through the keychain, so that a key that never leaves it
/// (made with `kSecAttrTokenID: kSecAttrTokenIDSecureEnclave`) serves mutual TLS.
///
/// ```swift
/// let identity = try KeychainTLSIdentity(secIdentity)
/// let configuration = AppTransportSecurity.clientConfiguration(identity: identity)
/// ```
///
/// Keys: EC P-256 (every key that never leaves the keychain), P-384 and P-521, and RSA, whether kept by the
/// keychain or held in the process. swift-nio-ssl's custom key API has limits, so this identity:
/// - signs only: BoringSSL's RSA decryption path (RSA key exchange, not forward secret) fails with
///   ``TLSIdentityError/Code/decryptionNotOffered``;
/// - signs with the one ECDSA scheme of an EC key's curve (`ecdsa_secp256r1_sha256` for P-256, as TLS 1.3 requires;
///   a TLS 1.2 peer that accepts only other hashes with P-256 fails the handshake), and with RSA-PSS or PKCS#1 v1.5
///   with SHA-256, -384 or -512 for RSA;
/// - cannot be Ed25519 or any other key type (``TLSIdentityError/Code/unsupportedKey``).
///
/// Each signature is a keychain request, which may block (a daemon round trip; a prompt when the key's access
/// control asks for the person): it runs on `threadPool`, never on the event loop. It goes to the keychain current
/// where the identity was made (the task's keychain under `SecurityTesting`, else the process's).
public struct KeychainTLSIdentity: Sendable {
    /// The identity's certificate, then `intermediates`, as the handshake presents them.
    public let certificateChain: [NIOSSLCertificate]
    /// The private key for swift-nio-ssl: a custom key whose signatures the keychain makes.
    public let privateKey: NIOSSLPrivateKey
    /// The TLS signature schemes the key signs with, most preferred first.
    public let signatureAlgorithms: [SignatureAlgorithm]

    /// The identity's certificate and key, with `intermediates` to send after the certificate. Signatures run on
    /// `threadPool` (NIO's shared pool by default). Fails with ``TLSIdentityError/Code/unreadableCertificate`` or
    /// ``TLSIdentityError/Code/unsupportedKey``.
    public init(_ identity: SecIdentity, intermediates: [SecCertificate] = [], threadPool: NIOThreadPool = .singleton) throws(TLSIdentityError) {
        var certificate: SecCertificate?
        var key: SecKey?
        guard SecIdentityCopyCertificate(identity, &certificate) == errSecSuccess, let certificate,
            SecIdentityCopyPrivateKey(identity, &key) == errSecSuccess, let key
        else {
            throw TLSIdentityError(.unreadableCertificate, "the identity has no certificate or no private key")
        }
        let der = Array(SecCertificateCopyData(certificate) as Data)
        guard let contents = try? CertificateContents(derEncoded: der) else {
            throw TLSIdentityError(.unreadableCertificate, "the identity's certificate cannot be read")
        }
        let schemes = (TLSSignatureScheme.schemes(for: contents) ?? []).filter { SecKeyIsAlgorithmSupported(key, .sign, $0.keyAlgorithm) }
        guard !schemes.isEmpty else {
            throw TLSIdentityError(.unsupportedKey, "TLS signing is offered for EC P-256, P-384, P-521 and RSA keys only")
        }
        var chain: [NIOSSLCertificate] = []
        for (index, member) in ([certificate] + intermediates).enumerated() {
            guard let parsed = try? NIOSSLCertificate(bytes: Array(SecCertificateCopyData(member) as Data), format: .der) else {
                throw TLSIdentityError(.unreadableCertificate, "certificate \(index) of the chain cannot be read by swift-nio-ssl")
            }
            chain.append(parsed)
        }
        let signingKey = KeychainSigningKey(key: key, schemes: schemes, keychain: .current(), threadPool: threadPool)
        certificateChain = chain
        privateKey = NIOSSLPrivateKey(customPrivateKey: signingKey)
        signatureAlgorithms = signingKey.signatureAlgorithms
    }

    /// Makes `configuration` present this identity: its chain and its key.
    public func present(in configuration: inout TLSConfiguration) {
        configuration.certificateChain = certificateChain.map { .certificate($0) }
        configuration.privateKey = .privateKey(privateKey)
    }
}
