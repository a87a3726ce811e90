import Foundation
import KeychainModel
import SwiftASN1

/// Reads a PKCS#12 (PFX, RFC 7292) file protected by a passphrase: verifies its MAC, decrypts its contents and its
/// shrouded keys, and returns the certificates and keys.
///
/// Accepted: password integrity mode with an HMAC-SHA-1/256/384/512 MAC keyed by the PKCS#12 KDF, or PBMAC1 (RFC
/// 9579) with PBKDF2 and HMAC-SHA-1/256/384/512; contents in the clear or encrypted with PBES2 (PBKDF2 with
/// HMAC-SHA-1/256/384/512, then AES-128/192/256-CBC or DES-EDE3-CBC) or with the PKCS#12 PBE algorithms
/// (SHA-1 with 3-key or 2-key Triple DES, 128- or 40-bit RC2, 128- or 40-bit RC4; RC2 and RC4 need OpenSSL's
/// legacy provider). Refused: files without a MAC, public-key integrity or privacy modes, other algorithms, and
/// iteration counts over ``PKCS12Limits/maximumIterations``, and files whose derivations together ask for more than
/// ``PKCS12Limits/maximumTotalWork``.
public enum PKCS12Reader {
    /// The certificates and keys of `bytes`, opened with `passphrase`.
    public static func read(_ bytes: [UInt8], passphrase: PKCS12Passphrase) throws(PKCS12Error) -> PKCS12Contents {
        try read(bytes, passphrase: passphrase, budget: PKCS12WorkBudget())
    }

    /// The certificates and keys of `bytes`, opened with `passphrase`, every key derivation paid from `budget`.
    static func read(_ bytes: [UInt8], passphrase: PKCS12Passphrase, budget: PKCS12WorkBudget) throws(PKCS12Error) -> PKCS12Contents {
        let root = try ASN1Reading.root(bytes[...], "PFX")
        let pfx = try ASN1Reading.run("PFX") { try PFX(berEncoded: root) }
        guard let mac = pfx.macData else { throw .malformed("the file has no MAC (password integrity mode is required)") }
        let kdfPassword = try MACVerification.verify(mac, over: pfx.authenticatedSafe, passphrase: passphrase, budget: budget)

        let decryption = ContentDecryption(passphrase: passphrase, kdfPassword: kdfPassword, budget: budget)
        var reader = SafeContentsReader(decryption: decryption)
        let parts = try authenticatedSafeParts(pfx.authenticatedSafe)
        for part in parts {
            switch part.contentType {
            case OID.data:
                try reader.read(try ASN1Reading.run("a data part") { try part.dataBytes() })
            case OID.encryptedData:
                let (algorithm, ciphertext) = try encryptedContent(part)
                let plaintext = try reader.decryption.decrypt(ciphertext, with: algorithm)
                var copy = plaintext.withUnsafeBytes { Array($0) }
                defer { copy.zeroize() }
                try reader.read(copy[...])
            case OID.envelopedData:
                throw PKCS12Error(.unsupportedEncryption, "public-key privacy mode (envelopedData) is not supported")
            default:
                throw .malformed("unknown content type \(part.contentType)")
            }
        }
        return PKCS12Contents(certificates: reader.certificates, privateKeys: reader.privateKeys)
    }

    /// The certificates and keys of `data`, opened with `passphrase`.
    public static func read(_ data: Data, passphrase: PKCS12Passphrase) throws(PKCS12Error) -> PKCS12Contents {
        try read([UInt8](data), passphrase: passphrase)
    }

    /// The ContentInfos of the AuthenticatedSafe.
    private static func authenticatedSafeParts(_ bytes: ArraySlice<UInt8>) throws(PKCS12Error) -> [ContentInfo] {
        let root = try ASN1Reading.root(bytes, "AuthenticatedSafe")
        return try ASN1Reading.run("AuthenticatedSafe") {
            try BER.sequence(root, identifier: .sequence) { nodes in
                var parts: [ContentInfo] = []
                while let node = nodes.next() {
                    guard parts.count < PKCS12Limits.maximumBags else { throw PKCS12Error.malformed("too many AuthenticatedSafe parts") }
                    parts.append(try ContentInfo(berEncoded: node))
                }
                return parts
            }
        }
    }

    /// The algorithm and ciphertext of an `EncryptedData` part.
    private static func encryptedContent(_ part: ContentInfo) throws(PKCS12Error) -> (AlgorithmIdentifier, ArraySlice<UInt8>) {
        try ASN1Reading.run("EncryptedData") {
            guard let content = part.content else { throw PKCS12Error.malformed("an encryptedData part has no content") }
            return try BER.sequence(content, identifier: .sequence) { nodes in
                _ = try Int(berEncoded: &nodes)
                guard let info = nodes.next() else { throw PKCS12Error.malformed("EncryptedData has no EncryptedContentInfo") }
                let result = try BER.sequence(info, identifier: .sequence) { fields in
                    _ = try ASN1ObjectIdentifier(berEncoded: &fields)
                    let algorithm = try AlgorithmIdentifier(berEncoded: &fields)
                    guard let encrypted = fields.next() else { throw PKCS12Error.malformed("EncryptedData has no encrypted content") }
                    let ciphertext = try ASN1OctetString(berEncoded: encrypted, withIdentifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
                        .bytes
                    return (algorithm, ciphertext)
                }
                ASN1Reading.skipRest(&nodes)
                return result
            }
        }
    }
}
