import Foundation
import SwiftASN1
import X509

/// The system's trusted roots: the certificates of Debian's `ca-certificates` bundle, the anchors a ``SecTrust``
/// uses unless ``SecTrustSetAnchorCertificates(_:_:)`` replaced them.
///
/// The bundle is read once per process, on the first evaluation that needs it, into an immutable value. A bundle
/// that is missing or unreadable gives no system anchors; certificates in it that do not parse are left out.
enum SystemAnchors {
    /// Where `ca-certificates` writes the bundle.
    static let bundlePath = "/etc/ssl/certs/ca-certificates.crt"

    /// The bundle's certificates, in its order.
    static let certificates: [Certificate] = load(bundlePath)

    /// The same certificates, as the verifier's store.
    static let store = CertificateStore(certificates)

    /// The certificates of a PEM bundle, or none when it cannot be read.
    static func load(_ path: String) -> [Certificate] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let documents = (try? PEMDocument.parseMultiple(pemString: String(decoding: data, as: UTF8.self))) ?? []
        return documents.compactMap { document in
            document.discriminator == "CERTIFICATE" ? try? Certificate(derEncoded: document.derBytes) : nil
        }
    }
}
