import CertificateParsing
import NIOSSL
import Security
import SwiftASN1

/// A TLS signature scheme a keychain key can sign with: the scheme's code point for swift-nio-ssl, and the
/// `SecKeyAlgorithm` that produces its signature bytes from the unhashed data BoringSSL hands over.
struct TLSSignatureScheme: Sendable, Hashable {
    let tls: SignatureAlgorithm
    let keyAlgorithm: SecKeyAlgorithm

    /// The schemes for a certificate's public key, most preferred first, or nil for a key type not offered.
    ///
    /// An EC key signs with the one ECDSA scheme of its curve: TLS 1.3 binds each ECDSA scheme to a curve
    /// (`ecdsa_secp256r1_sha256` for P-256, the only curve of keys that never leave the keychain). An RSA key signs
    /// with RSA-PSS (TLS 1.3's only RSA schemes) and, for TLS 1.2 peers, PKCS#1 v1.5; both with SHA-256 or longer.
    static func schemes(for certificate: CertificateContents) -> [TLSSignatureScheme]? {
        switch certificate.publicKeyAlgorithm {
        case .Certificates.ecPublicKey:
            guard let parameters = certificate.publicKeyParameters, let curve = try? ASN1ObjectIdentifier(derEncoded: parameters) else {
                return nil
            }
            switch curve {
            case .Certificates.p256: return [TLSSignatureScheme(tls: .ecdsaSecp256R1Sha256, keyAlgorithm: .ecdsaSignatureMessageX962SHA256)]
            case .Certificates.p384: return [TLSSignatureScheme(tls: .ecdsaSecp384R1Sha384, keyAlgorithm: .ecdsaSignatureMessageX962SHA384)]
            case .Certificates.p521: return [TLSSignatureScheme(tls: .ecdsaSecp521R1Sha512, keyAlgorithm: .ecdsaSignatureMessageX962SHA512)]
            default: return nil
            }
        case .Certificates.rsaEncryption:
            return [
                TLSSignatureScheme(tls: .rsaPssRsaeSha256, keyAlgorithm: .rsaSignatureMessagePSSSHA256),
                TLSSignatureScheme(tls: .rsaPssRsaeSha384, keyAlgorithm: .rsaSignatureMessagePSSSHA384),
                TLSSignatureScheme(tls: .rsaPssRsaeSha512, keyAlgorithm: .rsaSignatureMessagePSSSHA512),
                TLSSignatureScheme(tls: .rsaPkcs1Sha256, keyAlgorithm: .rsaSignatureMessagePKCS1v15SHA256),
                TLSSignatureScheme(tls: .rsaPkcs1Sha384, keyAlgorithm: .rsaSignatureMessagePKCS1v15SHA384),
                TLSSignatureScheme(tls: .rsaPkcs1Sha512, keyAlgorithm: .rsaSignatureMessagePKCS1v15SHA512),
            ]
        default:
            return nil
        }
    }
}
