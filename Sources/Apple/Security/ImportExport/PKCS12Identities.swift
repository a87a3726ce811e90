import Foundation
import KeychainKeys
import KeyCrypto
import KeychainModel
import PKCS12

/// Turns a PKCS#12 file's certificates and keys into ``SecPKCS12Import(_:_:_:)``'s item dictionaries, as Apple's
/// `SecPKCS12Import` does: each key is paired with a certificate, and its chain is built from the certificates
/// that are no key's.
enum PKCS12Identities {
    /// Why an item could not be made (a certificate that does not parse, a key that is not its certificate's).
    struct Failure: Error {
        let reason: String
    }

    /// The item dictionaries, one per private key.
    static func items(of contents: PKCS12Contents) throws -> [NSDictionary] {
        let certificates = try contents.certificates.map { bag in
            guard let certificate = SecCertificateCreateWithData(nil, bag.der as NSData) else {
                throw Failure(reason: "a certificate bag does not hold an X.509 certificate")
            }
            return (bag: bag, certificate: certificate)
        }
        let keys = try contents.privateKeys.map { bag in (bag: bag, key: try softwareKey(bag)) }
        var paired = Set<Int>()
        var pairs: [(key: (bag: PKCS12PrivateKey, key: AsymmetricKey), certificate: Int)] = []
        for key in keys {
            guard let index = partner(of: key, in: certificates.map(\.bag), keys: certificates.map(\.certificate)) else { continue }
            paired.insert(index)
            pairs.append((key, index))
        }
        let others = certificates.indices.filter { !paired.contains($0) }.map { certificates[$0].certificate }
        return try pairs.map { pair in
            let (bag, certificate) = certificates[pair.certificate]
            guard let identity = SecIdentityCreate(nil, certificate, SecKey(KeyHandle(software: pair.key.key))) else {
                throw Failure(reason: "a private key does not belong to its certificate")
            }
            let trust = SecTrust(certificates: [certificate] + others, policies: [SecPolicyCreateBasicX509()])
            let chain = SecTrustCopyCertificateChain(trust) ?? NSArray(array: [certificate])
            let label = pair.key.bag.attributes.friendlyName ?? bag.attributes.friendlyName ?? (SecCertificateCopySubjectSummary(certificate) as String?)
            let item = NSMutableDictionary()
            item[kSecImportItemIdentity] = identity
            item[kSecImportItemTrust] = trust
            item[kSecImportItemCertChain] = chain
            item[kSecImportItemKeyID] = ResultData(copying: pair.key.key.applicationLabel)
            if let label { item[kSecImportItemLabel] = label as NSString }
            return item
        }
    }

    /// The key of `bag`, made from its PKCS#8 (the copy of the key bytes is cleared).
    private static func softwareKey(_ bag: PKCS12PrivateKey) throws -> AsymmetricKey {
        var pkcs8 = bag.pkcs8.withUnsafeBytes { Data($0) }
        defer { pkcs8.zeroize() }
        do {
            return try AsymmetricKey(pkcs8: pkcs8, type: bag.type == .rsa ? .rsa : .ellipticCurve)
        } catch {
            throw Failure(reason: error.message)
        }
    }

    /// The certificate a key goes with: the one with its local key ID, else its friendly name (Apple's pairing),
    /// else the one whose public key is the key's.
    private static func partner(
        of key: (bag: PKCS12PrivateKey, key: AsymmetricKey), in bags: [PKCS12Certificate], keys certificates: [SecCertificate]
    ) -> Int? {
        if let id = key.bag.attributes.localKeyID, let index = bags.firstIndex(where: { $0.attributes.localKeyID == id }) {
            return index
        }
        if key.bag.attributes.localKeyID == nil, let name = key.bag.attributes.friendlyName,
            let index = bags.firstIndex(where: { $0.attributes.localKeyID == nil && $0.attributes.friendlyName == name })
        {
            return index
        }
        let publicKey = key.key.publicKey
        return certificates.firstIndex { SecCertificateCopyKey($0)?.handle.publicKey == publicKey }
    }

    /// Apple's status for a file that could not be read (SecImportExport.c: `p12_passwordErr` when the MAC check
    /// fails, `p12_decodeErr` otherwise).
    static func status(of error: PKCS12Error) -> KeychainStatus {
        switch error.code {
        case .macMismatch, .unsupportedMACAlgorithm: .authFailed
        case .malformed, .unsupportedEncryption, .cipherUnavailable, .unsupportedKeyAlgorithm: .decode
        }
    }
}
