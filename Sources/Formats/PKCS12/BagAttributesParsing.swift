import Foundation
import SwiftASN1

extension PKCS12BagAttributes {
    /// Reads `bagAttributes` (a SET OF `PKCS12Attribute`); attributes other than the friendly name and local key
    /// ID are skipped.
    init(berEncoded node: ASN1Node?) throws {
        var friendlyName: String?
        var localKeyID: Data?
        if let node {
            try BER.set(node, identifier: .set) { attributes in
                while let attribute = attributes.next() {
                    try BER.sequence(attribute, identifier: .sequence) { nodes in
                        let type = try ASN1ObjectIdentifier(berEncoded: &nodes)
                        guard let valuesNode = nodes.next() else { throw PKCS12Error.malformed("a bag attribute has no values") }
                        let first: ASN1Node? = try BER.set(valuesNode, identifier: .set) { values in
                            let first = values.next()
                            ASN1Reading.skipRest(&values)
                            return first
                        }
                        guard let first else { throw PKCS12Error.malformed("a bag attribute has no values") }
                        if type == OID.friendlyName {
                            let string = try ASN1BMPString(berEncoded: first)
                            friendlyName = Self.text(bmp: Array(string.bytes))
                        } else if type == OID.localKeyID {
                            localKeyID = Data(try ASN1OctetString(berEncoded: first).bytes)
                        }
                        ASN1Reading.skipRest(&nodes)
                    }
                }
            }
        }
        self.init(friendlyName: friendlyName, localKeyID: localKeyID)
    }

    /// The text of a BMPString's content (UTF-16 big-endian).
    static func text(bmp bytes: [UInt8]) -> String? {
        guard bytes.count % 2 == 0 else { return nil }
        let units = stride(from: 0, to: bytes.count, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        return String(decoding: units, as: UTF16.self)
    }
}
