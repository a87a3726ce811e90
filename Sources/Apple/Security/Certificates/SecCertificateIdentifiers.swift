import CertificateParsing
import Foundation

/// The certificate's serial number: the DER `INTEGER`'s content bytes, exactly as encoded (a leading 0x00 that
/// keeps the number positive is kept). Never fails for a certificate; `error` is left untouched.
public func SecCertificateCopySerialNumberData(
    _ certificate: SecCertificate, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    ResultData(copying: Data(certificate.attributes.serialNumber))
}

/// The certificate's issuer, normalized as the keychain stores and matches it (`kSecAttrIssuer`), in a DER
/// `SEQUENCE`: `PrintableString` values upper-cased (ASCII letters) with blanks trimmed and collapsed, every other
/// byte as in the certificate (see Apple's `SecDistinguishedNameCopyNormalizedContent`). Nil when the issuer
/// cannot be normalized.
public func SecCertificateCopyNormalizedIssuerSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.attributes.normalizedIssuer.map { ResultData(copying: Data(X501Name.encode(tag: 0x30, $0))) }
}

/// The certificate's subject, normalized as ``SecCertificateCopyNormalizedIssuerSequence(_:)`` normalizes the
/// issuer, in a DER `SEQUENCE`. Nil when the subject cannot be normalized.
public func SecCertificateCopyNormalizedSubjectSequence(_ certificate: SecCertificate) -> CFData? {
    certificate.attributes.normalizedSubject.map { ResultData(copying: Data(X501Name.encode(tag: 0x30, $0))) }
}
