import Crypto
import CryptoExtras
import Foundation
import NIOSSL
import Security
import SwiftASN1
import X509

/// A test CA made with swift-certificates, and the leaves the tests' servers and clients present.
struct TestPKI {
    let caKey = P256.Signing.PrivateKey()
    let caName: DistinguishedName
    let ca: Certificate
    let now = Date()

    init() throws {
        caName = try DistinguishedName { CommonName("Coffer TLS Test CA") }
        ca = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 86_400, issuer: caName, subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(caKey))
    }

    /// The CA as the anchor a verifier trusts.
    var anchor: SecCertificate { Self.secCertificate(ca) }

    /// A leaf issued by the CA for `publicKey`: a server's (`localhost`) or a client's, valid now unless `expired`.
    func leaf(_ name: String, publicKey: Certificate.PublicKey, server: Bool = true, expired: Bool = false) throws -> Certificate {
        let subject = try DistinguishedName { CommonName(name) }
        let (start, end) = expired ? (now - 10 * 86_400, now - 86_400) : (now - 3600, now + 86_400)
        return try Certificate(
            version: .v3, serialNumber: .init(), publicKey: publicKey, notValidBefore: start, notValidAfter: end,
            issuer: caName, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([server ? .serverAuth : .clientAuth])
                if server { SubjectAlternativeNames([.dnsName("localhost")]) }
            },
            issuerPrivateKey: .init(caKey))
    }

    static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    static func secCertificate(_ certificate: Certificate) -> SecCertificate {
        SecCertificateCreateWithData(nil, Data(der(certificate)) as CFData)!
    }

    static func nioCertificate(_ certificate: Certificate) throws -> NIOSSLCertificate {
        try NIOSSLCertificate(bytes: der(certificate), format: .der)
    }
}

/// A server's key and certificate, as swift-nio-ssl loads them: a P-256 key, or with `rsa` a 2048-bit RSA key.
struct ServerCredential {
    let keyPEM: String
    let certificate: Certificate

    init(_ pki: TestPKI, name: String, expired: Bool = false, rsa: Bool = false) throws {
        if rsa {
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            keyPEM = key.pemRepresentation
            certificate = try pki.leaf(name, publicKey: .init(key.publicKey), expired: expired)
        } else {
            let key = P256.Signing.PrivateKey()
            keyPEM = key.pemRepresentation
            certificate = try pki.leaf(name, publicKey: .init(key.publicKey), expired: expired)
        }
    }

    var certificateChain: [NIOSSLCertificateSource] { [.certificate(try! TestPKI.nioCertificate(certificate))] }
    var privateKey: NIOSSLPrivateKeySource { .privateKey(try! NIOSSLPrivateKey(bytes: Array(keyPEM.utf8), format: .pem)) }
    var secCertificate: SecCertificate { TestPKI.secCertificate(certificate) }
}
