import Crypto
import Foundation
import KeyCrypto

/// What a sign request's public key blob names, read without making a key: the public key's bytes as the keychain
/// labels them (`kSecAttrApplicationLabel` is their SHA-1), so the key's item is found with one search.
///
/// Ed25519 (`string "ssh-ed25519", string A`, RFC 8709 §4) and ECDSA (`string name, string curve, string Q`, RFC 5656
/// §3.1) blobs are read; RSA blobs (whose keychain bytes are PKCS#1 DER) and anything else are nil, and the agent
/// finds their key among all of its keys instead.
struct SSHPublicKeyBlob {
    /// The public key's bytes as ``AsymmetricKey/publicKeyBytes`` holds them: the 32-byte point, or X9.63 `04‖X‖Y`.
    let publicKeyBytes: Data
    /// The certificate blob, when the blob is an Ed25519 or ECDSA key's certificate.
    let certificate: Data?

    /// The blob's key bytes, or nil when the blob is not an Ed25519 or ECDSA key blob or such a key's certificate.
    init?(_ blob: Data) {
        if let certificate = SSHCertificate(blob: blob) {
            guard let certified = SSHPublicKeyBlob(certificate.publicKeyBlob) else { return nil }
            publicKeyBytes = certified.publicKeyBytes
            self.certificate = Data(blob)
            return
        }
        certificate = nil
        var reader = SSHWireReader(blob)
        guard let type = try? reader.text() else { return nil }
        switch type {
        case "ssh-ed25519":
            guard let point = try? reader.string(), point.count == 32, reader.isAtEnd else { return nil }
            publicKeyBytes = Data(point)
        case "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521":
            guard let curve = try? reader.text(), "ecdsa-sha2-\(curve)" == type, let point = try? reader.string(), point.first == 0x04,
                reader.isAtEnd
            else { return nil }
            publicKeyBytes = Data(point)
        default:
            return nil
        }
    }

    /// `kSecAttrApplicationLabel` of the key's items: the SHA-1 of the public key's bytes, as for every keychain key.
    var applicationLabel: Data { Data(Insecure.SHA1.hash(data: publicKeyBytes)) }
}
