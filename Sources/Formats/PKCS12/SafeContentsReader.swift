import Foundation
import KeychainModel
import SwiftASN1

/// Reads `SafeContents` (a SEQUENCE OF `SafeBag`), decrypting shrouded keys, into certificates and keys.
struct SafeContentsReader {
    let decryption: ContentDecryption
    private(set) var certificates: [PKCS12Certificate] = []
    private(set) var privateKeys: [PKCS12PrivateKey] = []
    private var bagCount = 0

    init(decryption: ContentDecryption) {
        self.decryption = decryption
    }

    /// Reads the bags in `bytes`, the DER of a SafeContents.
    mutating func read(_ bytes: ArraySlice<UInt8>) throws(PKCS12Error) {
        let root = try ASN1Reading.root(bytes, "SafeContents")
        let bags: [(ASN1ObjectIdentifier, ASN1Node, PKCS12BagAttributes)] = try ASN1Reading.run("SafeContents") {
            try BER.sequence(root, identifier: .sequence) { nodes in
                var bags: [(ASN1ObjectIdentifier, ASN1Node, PKCS12BagAttributes)] = []
                while let bag = nodes.next() {
                    bags.append(
                        try BER.sequence(bag, identifier: .sequence) { fields in
                            let type = try ASN1ObjectIdentifier(berEncoded: &fields)
                            let value = try BER.explicitlyTagged(&fields, tagNumber: 0, tagClass: .contextSpecific) { $0 }
                            let attributes = try PKCS12BagAttributes(berEncoded: fields.next())
                            return (type, value, attributes)
                        })
                }
                return bags
            }
        }
        for (type, value, attributes) in bags {
            bagCount += 1
            guard bagCount <= PKCS12Limits.maximumBags else { throw .malformed("more than \(PKCS12Limits.maximumBags) bags") }
            switch type {
            case OID.certBag:
                if let der = try Self.certificate(value) { certificates.append(PKCS12Certificate(der: der, attributes: attributes)) }
            case OID.shroudedKeyBag:
                let (algorithm, ciphertext) = try ASN1Reading.run("EncryptedPrivateKeyInfo") {
                    try BER.sequence(value, identifier: .sequence) { nodes in
                        (try AlgorithmIdentifier(berEncoded: &nodes), try ASN1OctetString(berEncoded: &nodes).bytes)
                    }
                }
                let pkcs8 = try decryption.decrypt(ciphertext, with: algorithm)
                try appendKey(pkcs8, attributes: attributes)
            case OID.keyBag:
                try appendKey(SecretBytes(copying: value.encodedBytes), attributes: attributes)
            case OID.crlBag, OID.secretBag, OID.safeContentsBag:
                continue  // As Apple's reader: not read.
            default:
                throw .malformed("unknown bag type \(type)")
            }
        }
    }

    private mutating func appendKey(_ pkcs8: SecretBytes, attributes: PKCS12BagAttributes) throws(PKCS12Error) {
        let type = try pkcs8.withUnsafeBytes { bytes throws(PKCS12Error) in try PrivateKeyInfoType.of(bytes) }
        privateKeys.append(PKCS12PrivateKey(pkcs8: pkcs8, type: type, attributes: attributes))
    }

    /// The DER of an X.509 certificate bag; nil for an SDSI certificate (skipped, as Apple's reader does).
    private static func certificate(_ value: ASN1Node) throws(PKCS12Error) -> Data? {
        try ASN1Reading.run("CertBag") {
            try BER.sequence(value, identifier: .sequence) { nodes in
                let type = try ASN1ObjectIdentifier(berEncoded: &nodes)
                let content = try BER.explicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { $0 }
                switch type {
                case OID.x509Certificate: return Data(try ASN1OctetString(berEncoded: content).bytes)
                case OID.sdsiCertificate: return nil
                default: throw PKCS12Error.malformed("unknown certificate type \(type)")
                }
            }
        }
    }
}
