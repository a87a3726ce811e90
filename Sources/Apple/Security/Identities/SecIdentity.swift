import Foundation

/// `SecIdentity`: a certificate together with the private key of its public key — what a TLS client or
/// server presents, and what PKCS#12 files carry.
///
/// Get one from ``SecPKCS12Import(_:_:_:)`` or from the keychain with `kSecClass = kSecClassIdentity` and
/// `kSecReturnRef`; in the keychain, an identity is a private key whose application label (`klbl`) equals a
/// certificate's public key hash (`pkhh`), not an item of its own. Identities compare equal when their
/// certificates and keys do.
public final class SecIdentity: Sendable, Hashable, CustomStringConvertible {
    /// The certificate.
    let certificate: SecCertificate
    /// The private key of the certificate's public key.
    let privateKey: SecKey

    init(certificate: SecCertificate, privateKey: SecKey) {
        self.certificate = certificate
        self.privateKey = privateKey
    }

    public static func == (lhs: SecIdentity, rhs: SecIdentity) -> Bool {
        lhs === rhs || (lhs.certificate == rhs.certificate && lhs.privateKey == rhs.privateKey)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(certificate)
        hasher.combine(privateKey)
    }

    /// Apple's description, naming the certificate and the key (never the key's bytes).
    public var description: String {
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        return "<SecIdentityRef: 0x\(String(address, radix: 16))> { certificate: \(certificate), private key: \(privateKey) }"
    }
}

/// The legacy spelling of ``SecIdentity``.
public typealias SecIdentityRef = SecIdentity

/// The type identifier of ``SecIdentity``, for comparison with ``CFGetTypeID(_:)``.
public func SecIdentityGetTypeID() -> CFTypeID { TypeIdentifier.identity.rawValue }
