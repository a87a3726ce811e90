import Foundation

/// A certificate together with the private key of its public key (Apple's `SecIdentity`): what a TLS client
/// presents for mutual TLS, and what a PKCS#12 file carries.
///
/// In the keychain an identity is no item of its own: it is a certificate item and a private key item whose
/// ``PrivateKey/applicationLabel`` equals the certificate's ``Certificate/publicKeyHash`` (reference §7.4). Store
/// the two with ``Keychain/add(certificate:label:accessGroup:accessibility:)`` and
/// ``Keychain/add(_:tag:label:accessGroup:accessibility:accessControl:)``, then find them as one with
/// ``Keychain/identities(matching:authenticationContext:)``. The key may be one that never leaves the keychain.
///
/// Descriptions never show key material.
public struct Identity: Sendable, Hashable, CustomStringConvertible {
    /// The certificate, with its stored attributes.
    public let certificate: Certificate
    /// The private key of the certificate's public key.
    public let privateKey: PrivateKey

    /// The identity of `certificate` and `privateKey` (Apple's `SecIdentityCreate`).
    ///
    /// - Throws: ``KeychainError`` with `errSecParam` (-50) when `privateKey` is not the private key of the
    ///   certificate's public key.
    public init(certificate: Certificate, privateKey: PrivateKey) throws(KeychainError) {
        guard certificate.publicKeyHash == privateKey.applicationLabel else {
            throw KeychainError(
                status: .param, operation: .readCertificate,
                reason: "The private key is not the key of the certificate's public key (its application label differs from the certificate's public key hash)."
            )
        }
        self.init(pairing: certificate, with: privateKey)
    }

    /// An identity the keychain paired (the keychain checked the key's application label).
    init(pairing certificate: Certificate, with privateKey: PrivateKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    /// The certificate and the kind of key, such as
    /// `identity of certificate "client.example" issued by "Example CA" with EC P-256 private key`.
    public var description: String { "identity of \(certificate) with \(privateKey)" }
}
