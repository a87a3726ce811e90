import Foundation

/// The date from which the certificate is valid (its `notBefore`).
public func SecCertificateCopyNotValidBeforeDate(_ certificate: SecCertificate) -> CFDate? {
    certificate.contents.notValidBefore as NSDate
}

/// The date after which the certificate is no longer valid (its `notAfter`).
public func SecCertificateCopyNotValidAfterDate(_ certificate: SecCertificate) -> CFDate? {
    certificate.contents.notValidAfter as NSDate
}
