import Foundation

/// A short human-readable name for the certificate, from its subject, or nil when it has none.
///
/// Apple's rule (`SecCertificateCopySubjectSummary` in Apple's `SecCertificate.c`), in this order:
/// 1. the subject's common names (all of them, the last first, joined by `", "`), followed by the subject's
///    `description` values in parentheses when it has any: `"name (description)"`;
/// 2. without a common name: the first e-mail address (the subject alternative name's `rfc822Name`s first, then
///    the subject's `emailAddress` attributes), else the first subject alternative `dNSName` shaped like a DNS name;
/// 3. else the subject's organizational units (the last first, joined by `", "`), else its organizations, else
///    the values of its other attributes (country, locality, …; the last first, joined by `", "`).
///
/// Texts are read per the value's string type (UTF-8, ASCII, Latin-1, UTF-16). Non-string values, which Apple
/// describes with localized words, are skipped.
public func SecCertificateCopySubjectSummary(_ certificate: SecCertificate) -> CFString? {
    certificate.attributes.subjectSummary.map { $0 as NSString }
}

/// The subject's common name: the last `commonName` attribute of the subject, as Apple returns it.
///
/// As Apple's does (`SecCertificateCopyCommonName` in `SecCertificate.c`), it answers `errSecInternal` and leaves
/// `commonName` untouched when the subject has no common name (or one without text), and `errSecSuccess` with the
/// name otherwise.
public func SecCertificateCopyCommonName(_ certificate: SecCertificate, _ commonName: UnsafeMutablePointer<CFString?>) -> OSStatus {
    guard let last = certificate.attributes.commonNames?.last else {
        Diagnostics.log("SecCertificateCopyCommonName", status: .internal, reason: "the subject has no common name")
        return errSecInternal
    }
    commonName.pointee = last as NSString
    Diagnostics.log("SecCertificateCopyCommonName", status: .success)
    return errSecSuccess
}

/// The certificate's e-mail addresses, in Apple's order: the subject alternative name's `rfc822Name`s as they
/// appear, then the subject's `emailAddress` attributes as they appear. Always `errSecSuccess`, with an empty
/// array when there is none (or when one cannot be read, as with Apple).
public func SecCertificateCopyEmailAddresses(_ certificate: SecCertificate, _ emailAddresses: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    emailAddresses.pointee = (certificate.attributes.rfc822Names ?? []).map { $0 as NSString } as NSArray
    Diagnostics.log("SecCertificateCopyEmailAddresses", status: .success)
    return errSecSuccess
}
