import SwiftASN1

/// The PFX's `MacData`: the MAC's algorithm and value (a `DigestInfo`), the salt and the iteration count of its key.
struct MacData {
    let algorithm: AlgorithmIdentifier
    let digest: ArraySlice<UInt8>
    let salt: ArraySlice<UInt8>
    let iterations: Int

    init(berEncoded node: ASN1Node) throws {
        (algorithm, digest, salt, iterations) = try BER.sequence(node, identifier: .sequence) { nodes in
            guard let digestInfo = nodes.next() else { throw PKCS12Error.malformed("MacData has no DigestInfo") }
            let (algorithm, digest) = try BER.sequence(digestInfo, identifier: .sequence) { inner in
                (try AlgorithmIdentifier(berEncoded: &inner), try ASN1OctetString(berEncoded: &inner).bytes)
            }
            let salt = try ASN1OctetString(berEncoded: &nodes).bytes
            let iterations: Int
            if nodes.peekIdentifier == .integer {
                iterations = try ASN1Reading.count(&nodes, "the MAC's iteration count", maximum: PKCS12Limits.maximumIterations)
            } else {
                iterations = 1
            }
            return (algorithm, digest, salt, iterations)
        }
    }
}

extension ASN1NodeCollection.Iterator {
    /// The identifier of the next node, without consuming it.
    var peekIdentifier: ASN1Identifier? {
        var copy = self
        return copy.next()?.identifier
    }
}
