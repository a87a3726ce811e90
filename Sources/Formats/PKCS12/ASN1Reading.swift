import SwiftASN1

/// Runs SwiftASN1 parsing code and turns whatever it throws into ``PKCS12Error/Code/malformed``, naming the
/// structure being read.
enum ASN1Reading {
    static func run<Result>(_ structure: String, _ body: () throws -> Result) throws(PKCS12Error) -> Result {
        do {
            return try body()
        } catch let error as PKCS12Error {
            throw error
        } catch {
            throw .malformed("\(structure) is not valid ASN.1 (\(error))")
        }
    }

    /// Parses `bytes` as one BER (or DER) element with nothing after it.
    static func root(_ bytes: ArraySlice<UInt8>, _ structure: String) throws(PKCS12Error) -> ASN1Node {
        try run(structure) { try BER.parse(bytes) }
    }

    /// A non-negative INTEGER that fits in an `Int`, at most `maximum`.
    static func count(_ nodes: inout ASN1NodeCollection.Iterator, _ name: String, maximum: Int) throws -> Int {
        let value = try Int(berEncoded: &nodes)
        guard value >= 0, value <= maximum else {
            throw PKCS12Error.malformed("\(name) \(value) is out of bounds (0…\(maximum))")
        }
        return value
    }

    /// Skips the elements a structure allows after its known ones (extensions, optional attributes).
    static func skipRest(_ nodes: inout ASN1NodeCollection.Iterator) {
        while nodes.next() != nil {}
    }
}
