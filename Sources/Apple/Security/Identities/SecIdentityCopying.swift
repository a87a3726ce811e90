import Foundation
import KeychainKeys

/// Sets `certificateRef` to the identity's certificate; `errSecSuccess`.
public func SecIdentityCopyCertificate(
    _ identityRef: SecIdentity, _ certificateRef: UnsafeMutablePointer<SecCertificate?>
) -> OSStatus {
    certificateRef.pointee = identityRef.certificate
    return errSecSuccess
}

/// Sets `privateKeyRef` to the identity's private key; `errSecSuccess`. A key the keychain keeps (a Secure
/// Enclave key) stays there: the ``SecKey`` is its handle.
public func SecIdentityCopyPrivateKey(_ identityRef: SecIdentity, _ privateKeyRef: UnsafeMutablePointer<SecKey?>) -> OSStatus {
    privateKeyRef.pointee = identityRef.privateKey
    return errSecSuccess
}

/// An identity of `certificate` and `privateKey` (Apple's `SecIdentityCreate`, available to Apple's own code on
/// iOS and to everyone on macOS), or nil when the key is not the private key of the certificate's public key.
public func SecIdentityCreate(_ allocator: CFAllocator?, _ certificate: SecCertificate, _ privateKey: SecKey) -> SecIdentity? {
    guard privateKey.handle.keyClass == .privateKey, let certificateKey = SecCertificateCopyKey(certificate),
        certificateKey.handle.publicKey == privateKey.handle.publicKey
    else { return nil }
    return SecIdentity(certificate: certificate, privateKey: privateKey)
}
