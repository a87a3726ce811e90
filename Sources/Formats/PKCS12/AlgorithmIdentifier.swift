import SwiftASN1

/// An X.509 `AlgorithmIdentifier`: an algorithm and its parameters, read from BER.
struct AlgorithmIdentifier {
    let algorithm: ASN1ObjectIdentifier
    let parameters: ASN1Node?

    init(berEncoded node: ASN1Node) throws {
        (algorithm, parameters) = try BER.sequence(node, identifier: .sequence) { nodes in
            let algorithm = try ASN1ObjectIdentifier(berEncoded: &nodes)
            let parameters = nodes.next()
            ASN1Reading.skipRest(&nodes)
            return (algorithm, parameters)
        }
    }

    init(berEncoded nodes: inout ASN1NodeCollection.Iterator) throws {
        guard let node = nodes.next() else { throw PKCS12Error.malformed("an AlgorithmIdentifier is missing") }
        try self.init(berEncoded: node)
    }

    /// The parameters, which must be present.
    func requiredParameters() throws -> ASN1Node {
        guard let parameters else { throw PKCS12Error.malformed("\(algorithm) has no parameters") }
        return parameters
    }
}
