import CertificateParsing
import Foundation

/// A certificate from its DER representation, or nil when `data` is not a DER-encoded X.509 certificate (PEM
/// text, truncated bytes and anything else that does not parse).
///
/// As Apple's does, it reads the first DER element of `data` and ignores bytes after it:
/// ``SecCertificateCopyData(_:)`` then returns the certificate without them. Any public key algorithm is accepted
/// (Ed448, secp256k1 and RSA-PSS keys too); ``SecCertificateCopyKey(_:)`` makes keys of RSA and P-256/384/521 only.
/// The allocator is ignored.
public func SecCertificateCreateWithData(_ allocator: CFAllocator?, _ data: CFData) -> SecCertificate? {
    let bytes = [UInt8](data.contiguousData)
    do {
        let certificate = try SecCertificate(contents: CertificateContents(derEncoded: bytes))
        Diagnostics.log("SecCertificateCreateWithData", status: .success)
        return certificate
    } catch let refusal as CertificateContents.NotACertificate {
        // Apple reports nothing but nil; the line names errSecInvalidCertificate's value (errSecDecode).
        Diagnostics.log("SecCertificateCreateWithData", status: .decode, reason: "not a certificate: \(refusal.reason)")
        return nil
    } catch {
        Diagnostics.log("SecCertificateCreateWithData", status: .decode, reason: "a critical subjectAltName does not parse")
        return nil
    }
}

/// The certificate's DER representation: the bytes it was made from, without any that followed the certificate.
public func SecCertificateCopyData(_ certificate: SecCertificate) -> CFData {
    ResultData(copying: Data(certificate.contents.der))
}
