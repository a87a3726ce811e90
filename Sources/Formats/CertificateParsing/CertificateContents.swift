import Foundation
import SwiftASN1

/// The fields of an X.509 certificate that Apple's `SecCertificateCreateWithData` reads, taken from its DER by a
/// SwiftASN1 walk, for any public key algorithm (Ed448, secp256k1 and RSA-PSS keys included, which
/// swift-certificates refuses).
///
/// Pure and independent of the `Security` module's types (its own target, `CertificateParsing`), so that the
/// keychain's side can read certificates as the client does.
/// The checks are those of Apple's `SecCertificateParse` (`OSX/sec/Security/SecCertificate.c`):
/// - the bytes start with one DER `SEQUENCE`; bytes after it are ignored and not kept, as Apple keeps only the
///   certificate it parsed;
/// - `Certificate ::= SEQUENCE { tbsCertificate, signatureAlgorithm, signature BIT STRING }`, nothing more;
/// - an explicit `version` is an `INTEGER` of one byte, 1 (v2) or 2 (v3); an absent one is v1;
/// - the serial number's contents are 1 to 37 bytes;
/// - the issuer and subject are `SEQUENCE`s, the validity two times (`UTCTime` or `GeneralizedTime`);
/// - the subject public key info is an algorithm identifier and a `BIT STRING`;
/// - extensions, when present, are a non-empty sequence of `{ OID, BOOLEAN DEFAULT FALSE, OCTET STRING }`.
///
/// Differences: the bytes must be strict DER (SwiftASN1's rules; Apple's libDER also reads some non-minimal
/// encodings), and of Apple's checks of known critical extensions' contents only the subject alternative name's is
/// made (by ``CertificateAttributes``).
public struct CertificateContents: Sendable, Hashable {
    /// One extension: its identifier, criticality and the contents of its `extnValue` OCTET STRING.
    public struct Extension: Sendable, Hashable {
        public let identifier: ASN1ObjectIdentifier
        public let critical: Bool
        public let value: [UInt8]
    }

    /// The certificate's DER: the one `SEQUENCE` parsed, without any bytes that followed it.
    public let der: [UInt8]
    /// The X.509 version field: 0 (v1), 1 (v2) or 2 (v3).
    public let version: Int
    /// The serial number `INTEGER`'s content bytes, exactly as encoded (a leading 0x00 kept).
    public let serialNumber: [UInt8]
    /// The issuer `Name`, tag and length included.
    public let issuer: [UInt8]
    /// The subject `Name`, tag and length included.
    public let subject: [UInt8]
    /// The start of the validity period.
    public let notValidBefore: Date
    /// The end of the validity period.
    public let notValidAfter: Date
    /// The `SubjectPublicKeyInfo`, tag and length included.
    public let subjectPublicKeyInfo: [UInt8]
    /// The public key algorithm's object identifier.
    public let publicKeyAlgorithm: ASN1ObjectIdentifier
    /// The algorithm identifier's parameters, tag and length included, when present.
    public let publicKeyParameters: [UInt8]?
    /// The `subjectPublicKey` BIT STRING's contents after its unused-bits byte (EC: `04‖X‖Y`; RSA: PKCS#1).
    public let publicKeyBits: [UInt8]
    /// The extensions, in their order.
    public let extensions: [Extension]

    /// Why bytes are no certificate (never shown to callers, who get nil as from Apple).
    public struct NotACertificate: Error {
        public let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Reads a certificate from `bytes` (DER), or throws when they are none.
    public init(derEncoded bytes: [UInt8]) throws(NotACertificate) {
        guard let length = Self.lengthOfFirstElement(bytes), bytes.first == 0x30 else {
            throw NotACertificate("not a DER SEQUENCE")
        }
        let der = Array(bytes.prefix(length))
        let root: ASN1Node
        do { root = try DER.parse(der) } catch { throw NotACertificate("not DER: \(error)") }
        let certificate = try Self.children(of: root, count: 3...3, "Certificate")
        let signatureAlgorithm = certificate[1]
        guard certificate[0].identifier == .sequence, signatureAlgorithm.identifier == .sequence else {
            throw NotACertificate("tbsCertificate or signatureAlgorithm is not a SEQUENCE")
        }
        _ = try Self.algorithm(signatureAlgorithm)
        guard certificate[2].identifier == .bitString, case .primitive = certificate[2].content else {
            throw NotACertificate("signature is not a BIT STRING")
        }
        var fields = try Self.children(of: certificate[0], count: 6...10, "TBSCertificate")[...]

        var version = 0
        if let first = fields.first, first.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            let wrapped = try Self.children(of: first, count: 1...1, "version")
            guard wrapped[0].identifier == .integer, case .primitive(let value) = wrapped[0].content, value.count == 1,
                let number = value.first, number == 1 || number == 2
            else { throw NotACertificate("version is not 1 or 2") }
            version = Int(number)
            fields = fields.dropFirst()
        }
        guard fields.count >= 6 else { throw NotACertificate("TBSCertificate lacks fields") }
        let items = Array(fields)
        guard items[0].identifier == .integer, case .primitive(let serial) = items[0].content, (1...37).contains(serial.count) else {
            throw NotACertificate("serialNumber is not an INTEGER of 1 to 37 bytes")
        }
        guard items[1].identifier == .sequence else { throw NotACertificate("signature is not an AlgorithmIdentifier") }
        _ = try Self.algorithm(items[1])
        guard items[2].identifier == .sequence, items[3].identifier == .sequence, items[4].identifier == .sequence,
            items[5].identifier == .sequence
        else { throw NotACertificate("issuer, validity, subject or subjectPublicKeyInfo is not a SEQUENCE") }
        let validity = try Self.children(of: items[3], count: 2...2, "Validity")
        let spki = try Self.children(of: items[5], count: 2...2, "SubjectPublicKeyInfo")
        guard spki[0].identifier == .sequence else { throw NotACertificate("the key's algorithm is not a SEQUENCE") }
        let (keyAlgorithm, keyParameters) = try Self.algorithm(spki[0])
        guard spki[1].identifier == .bitString, case .primitive(let keyBitString) = spki[1].content else {
            throw NotACertificate("subjectPublicKey is not a BIT STRING")
        }

        var extensions: [Extension] = []
        var optional = items[6...]
        for (number, name) in [(UInt(1), "issuerUniqueID"), (2, "subjectUniqueID")] {
            if let next = optional.first, next.identifier == ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific) {
                guard case .primitive = next.content else { throw NotACertificate("\(name) is constructed") }
                optional = optional.dropFirst()
            }
        }
        if let next = optional.first, next.identifier == ASN1Identifier(tagWithNumber: 3, tagClass: .contextSpecific) {
            extensions = try Self.extensions(next)
            optional = optional.dropFirst()
        }
        guard optional.isEmpty else { throw NotACertificate("unexpected fields after the TBSCertificate's last") }

        self.der = der
        self.version = version
        self.serialNumber = Array(serial)
        self.issuer = Array(items[2].encodedBytes)
        self.subject = Array(items[4].encodedBytes)
        self.notValidBefore = try Self.time(validity[0])
        self.notValidAfter = try Self.time(validity[1])
        self.subjectPublicKeyInfo = Array(items[5].encodedBytes)
        self.publicKeyAlgorithm = keyAlgorithm
        self.publicKeyParameters = keyParameters
        // Apple's DERParseBitString: the first byte counts unused bits; fewer than 2 bytes give no key bits.
        self.publicKeyBits = keyBitString.count < 2 ? [] : Array(keyBitString.dropFirst())
        self.extensions = extensions
    }

    /// The extension with `identifier`, the first when there are several.
    public func firstExtension(_ identifier: ASN1ObjectIdentifier) -> Extension? {
        extensions.first { $0.identifier == identifier }
    }

    // MARK: - The walk

    /// The length of the TLV at the start of `bytes` (single-byte tag, definite length), when it fits in them.
    static func lengthOfFirstElement(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2, bytes[0] & 0x1F != 0x1F else { return nil }
        let first = Int(bytes[1])
        var header = 2
        var contentLength = first
        if first & 0x80 != 0 {
            let count = first & 0x7F
            guard count >= 1, count <= 8, bytes.count >= 2 + count else { return nil }
            contentLength = 0
            for byte in bytes[2..<(2 + count)] {
                guard contentLength < (Int.max >> 8) else { return nil }
                contentLength = contentLength << 8 | Int(byte)
            }
            header += count
        }
        guard contentLength <= bytes.count - header else { return nil }
        return header + contentLength
    }

    private static func children(of node: ASN1Node, count: ClosedRange<Int>, _ name: String) throws(NotACertificate) -> [ASN1Node] {
        guard case .constructed(let collection) = node.content else { throw NotACertificate("\(name) is not constructed") }
        let nodes = Array(collection)
        guard count.contains(nodes.count) else { throw NotACertificate("\(name) has \(nodes.count) fields") }
        return nodes
    }

    /// `AlgorithmIdentifier ::= SEQUENCE { algorithm OBJECT IDENTIFIER, parameters ANY OPTIONAL }`.
    private static func algorithm(_ node: ASN1Node) throws(NotACertificate) -> (ASN1ObjectIdentifier, [UInt8]?) {
        let parts = try children(of: node, count: 1...2, "AlgorithmIdentifier")
        guard let identifier = try? ASN1ObjectIdentifier(derEncoded: parts[0]) else {
            throw NotACertificate("AlgorithmIdentifier without an OID")
        }
        return (identifier, parts.count == 2 ? Array(parts[1].encodedBytes) : nil)
    }

    private static func extensions(_ wrapper: ASN1Node) throws(NotACertificate) -> [Extension] {
        let sequence = try children(of: wrapper, count: 1...1, "extensions")[0]
        guard sequence.identifier == .sequence else { throw NotACertificate("extensions are not a SEQUENCE") }
        let list = try children(of: sequence, count: 1...9_999, "Extensions")
        return try list.map { (node: ASN1Node) throws(NotACertificate) -> Extension in
            guard node.identifier == .sequence else { throw NotACertificate("an extension is not a SEQUENCE") }
            let parts = try children(of: node, count: 2...3, "Extension")
            guard let identifier = try? ASN1ObjectIdentifier(derEncoded: parts[0]) else {
                throw NotACertificate("an extension without an OID")
            }
            var critical = false
            if parts.count == 3 {
                guard let value = try? Bool(derEncoded: parts[1]) else { throw NotACertificate("criticality is not a BOOLEAN") }
                critical = value
            }
            guard let last = parts.last, last.identifier == .octetString, case .primitive(let value) = last.content else {
                throw NotACertificate("extnValue is not an OCTET STRING")
            }
            return Extension(identifier: identifier, critical: critical, value: Array(value))
        }
    }

    /// A `Time`: `UTCTime` (years 50–99 are 19xx) or `GeneralizedTime`, as a date.
    private static func time(_ node: ASN1Node) throws(NotACertificate) -> Date {
        var components = DateComponents()
        components.timeZone = TimeZone(identifier: "UTC")
        var fraction = 0.0
        if let utc = try? UTCTime(derEncoded: node) {
            (components.year, components.month, components.day) = (utc.year, utc.month, utc.day)
            (components.hour, components.minute, components.second) = (utc.hours, utc.minutes, utc.seconds)
        } else if let generalized = try? GeneralizedTime(derEncoded: node) {
            (components.year, components.month, components.day) = (generalized.year, generalized.month, generalized.day)
            (components.hour, components.minute, components.second) = (generalized.hours, generalized.minutes, generalized.seconds)
            fraction = generalized.fractionalSeconds
        } else {
            throw NotACertificate("a validity time is neither UTCTime nor GeneralizedTime")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components) else { throw NotACertificate("a validity time is no date") }
        return date.addingTimeInterval(fraction)
    }
}

extension ASN1ObjectIdentifier {
    /// Object identifiers the certificate code reads.
    public enum Certificates {
        public static let commonName: ASN1ObjectIdentifier = [2, 5, 4, 3]
        public static let organizationalUnitName: ASN1ObjectIdentifier = [2, 5, 4, 11]
        public static let organizationName: ASN1ObjectIdentifier = [2, 5, 4, 10]
        public static let description: ASN1ObjectIdentifier = [2, 5, 4, 13]
        public static let emailAddress: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 1]
        public static let subjectAlternativeName: ASN1ObjectIdentifier = [2, 5, 29, 17]
        public static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
        public static let ecPublicKey: ASN1ObjectIdentifier = [1, 2, 840, 10_045, 2, 1]
        public static let p256: ASN1ObjectIdentifier = [1, 2, 840, 10_045, 3, 1, 7]
        public static let p384: ASN1ObjectIdentifier = [1, 3, 132, 0, 34]
        public static let p521: ASN1ObjectIdentifier = [1, 3, 132, 0, 35]
    }
}
