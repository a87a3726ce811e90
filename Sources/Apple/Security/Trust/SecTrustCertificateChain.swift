import Foundation

/// The evaluated chain, leaf first: to the anchor when trusted, otherwise as far as issuers were found. The trust is
/// evaluated first when it has no result. Apple's replacement for `SecTrustGetCertificateAtIndex`.
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    let chain = trust.outcome().chain
    return chain.isEmpty ? nil : NSArray(array: chain)
}

/// The number of certificates in the evaluated chain, anchor included (see ``SecTrustCopyCertificateChain(_:)``).
/// The trust is evaluated first when it has no result.
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex {
    trust.outcome().chain.count
}

/// The leaf certificate's public key, as ``SecCertificateCopyKey(_:)`` makes it: nil for keys other than RSA and
/// P-256/384/521. Needs no evaluation, as on Apple platforms.
public func SecTrustCopyKey(_ trust: SecTrust) -> SecKey? {
    SecCertificateCopyKey(trust.leaf)
}
