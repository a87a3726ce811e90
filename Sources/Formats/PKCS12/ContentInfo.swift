import SwiftASN1

/// A PKCS#7 `ContentInfo`: a content type and the `[0] EXPLICIT` content, which PKCS#12 uses for the
/// AuthenticatedSafe and each of its parts.
struct ContentInfo {
    let contentType: ASN1ObjectIdentifier
    let content: ASN1Node?

    init(berEncoded node: ASN1Node) throws {
        (contentType, content) = try BER.sequence(node, identifier: .sequence) { nodes in
            let type = try ASN1ObjectIdentifier(berEncoded: &nodes)
            let content = try BER.optionalExplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) { $0 }
            return (type, content)
        }
    }

    /// The bytes of a `data` content: its OCTET STRING's value (segments of a BER constructed string joined).
    func dataBytes() throws -> ArraySlice<UInt8> {
        guard contentType == OID.data else { throw PKCS12Error.malformed("a ContentInfo is not of type data") }
        guard let content else { throw PKCS12Error.malformed("a data ContentInfo has no content") }
        return try ASN1OctetString(berEncoded: content).bytes
    }
}
