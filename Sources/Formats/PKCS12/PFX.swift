import SwiftASN1

/// The outer `PFX` structure (RFC 7292 §4): version 3, the AuthenticatedSafe as a `data` ContentInfo (password
/// integrity mode), and the MAC over it.
struct PFX {
    /// The AuthenticatedSafe's DER, the bytes the MAC covers.
    let authenticatedSafe: ArraySlice<UInt8>
    let macData: MacData?

    init(berEncoded node: ASN1Node) throws {
        (authenticatedSafe, macData) = try BER.sequence(node, identifier: .sequence) { nodes in
            let version = try Int(berEncoded: &nodes)
            guard version == 3 else { throw PKCS12Error.malformed("PFX version \(version) is not 3") }
            guard let authSafeNode = nodes.next() else { throw PKCS12Error.malformed("the PFX has no authSafe") }
            let authSafe = try ContentInfo(berEncoded: authSafeNode)
            if authSafe.contentType == OID.signedData {
                throw PKCS12Error(.unsupportedEncryption, "public-key integrity mode (signedData) is not supported")
            }
            let bytes = try authSafe.dataBytes()
            let macData = try nodes.next().map { try MacData(berEncoded: $0) }
            return (bytes, macData)
        }
    }
}
