import KeychainModel
import SwiftASN1

/// The algorithm of a PKCS#8 `PrivateKeyInfo`, read without keeping any of its bytes.
enum PrivateKeyInfoType {
    /// RSA or EC, from the DER in `bytes`; other algorithms are refused.
    static func of(_ bytes: UnsafeRawBufferPointer) throws(PKCS12Error) -> PKCS12PrivateKey.KeyType {
        // The copy holds key bytes: every node is gone when it is cleared.
        var copy = Array(bytes)
        defer { copy.zeroize() }
        let algorithm = try algorithm(in: copy[...])
        switch algorithm {
        case OID.rsaEncryption: return .rsa
        case OID.ecPublicKey: return .ellipticCurve
        default: throw PKCS12Error(.unsupportedKeyAlgorithm, "private key algorithm \(algorithm) is not supported")
        }
    }

    private static func algorithm(in bytes: ArraySlice<UInt8>) throws(PKCS12Error) -> ASN1ObjectIdentifier {
        let root = try ASN1Reading.root(bytes, "PrivateKeyInfo")
        return try ASN1Reading.run("PrivateKeyInfo") {
            try BER.sequence(root, identifier: .sequence) { nodes in
                let version = try Int(berEncoded: &nodes)
                guard version == 0 || version == 1 else { throw PKCS12Error.malformed("PrivateKeyInfo version \(version)") }
                let algorithm = try AlgorithmIdentifier(berEncoded: &nodes).algorithm
                _ = try ASN1OctetString(berEncoded: &nodes)
                ASN1Reading.skipRest(&nodes)
                return algorithm
            }
        }
    }
}
