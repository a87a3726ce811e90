import CertificateParsing
import Foundation
import KeychainKeys
import KeyCrypto
import SwiftASN1

/// The certificate's public key, as a software ``SecKey``, or nil when it is not an RSA key
/// (`rsaEncryption`) or an elliptic-curve key (`id-ecPublicKey`) on P-256, P-384 or P-521, or when its bytes are
/// no such key. Apple supports RSA and ECDSA keys only here, too.
public func SecCertificateCopyKey(_ certificate: SecCertificate) -> SecKey? {
    let contents = certificate.contents
    let bytes = Data(contents.publicKeyBits)
    let key: AsymmetricKey?
    switch contents.publicKeyAlgorithm {
    case .Certificates.rsaEncryption:
        key = try? AsymmetricKey(externalRepresentation: bytes, type: .rsa, keyClass: .publicKey)
    case .Certificates.ecPublicKey:
        let curve = contents.publicKeyParameters.flatMap { try? ASN1ObjectIdentifier(derEncoded: $0) }
        let pointLength: Int? =
            switch curve {
            case .Certificates.p256?: 65
            case .Certificates.p384?: 97
            case .Certificates.p521?: 133
            default: nil
            }
        key = pointLength == bytes.count ? try? AsymmetricKey(externalRepresentation: bytes, type: .ellipticCurve, keyClass: .publicKey) : nil
    default:
        key = nil
    }
    return key.map { SecKey(KeyHandle(software: $0)) }
}

/// The iOS spelling of ``SecCertificateCopyKey(_:)`` (deprecated in iOS 12).
@available(*, deprecated, renamed: "SecCertificateCopyKey(_:)")
public func SecCertificateCopyPublicKey(_ certificate: SecCertificate) -> SecKey? {
    SecCertificateCopyKey(certificate)
}
