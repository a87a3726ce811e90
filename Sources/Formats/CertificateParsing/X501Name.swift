import SwiftASN1

/// An X.501 `Name` (a certificate's issuer or subject) read as Apple's `parseX501NameContent` reads it, and
/// normalized as Apple's `createNormalizedX501Name` normalizes it (`OSX/sec/Security/SecCertificate.c`). Pure.
public struct X501Name: Sendable, Hashable {
    /// One `AttributeTypeAndValue`.
    struct Attribute: Sendable, Hashable {
        /// The attribute type.
        let type: ASN1ObjectIdentifier
        /// The value's tag byte (0x13 PrintableString, 0x0C UTF8String, …).
        let tag: UInt8
        /// The value's content bytes.
        let content: [UInt8]
    }

    /// The relative distinguished names in their order, each with its attributes in their encoded order.
    let relativeNames: [[Attribute]]
    /// Apple's normalized content of the name (see ``normalizedContent(of:)``), or nil where Apple has none.
    let normalizedContent: [UInt8]?

    /// Every attribute in Apple's reading order: the RDNs in order, and within one the attributes as encoded.
    var attributes: [Attribute] { relativeNames.flatMap { $0 } }

    /// The values of the attributes of `type`, in reading order.
    func values(of type: ASN1ObjectIdentifier) -> [Attribute] { attributes.filter { $0.type == type } }

    /// Reads `name`, a DER `Name` (tag and length included). Nil where Apple's name parsing fails: an RDN that is
    /// not a non-empty `SET`, an attribute that is not `SEQUENCE { OBJECT IDENTIFIER, ANY }`, or 1024 RDNs and more.
    init?(der name: [UInt8]) {
        guard let root = try? DER.parse(name), root.identifier == .sequence, case .constructed(let rdns) = root.content else {
            return nil
        }
        var relativeNames: [[Attribute]] = []
        var normalized: [UInt8] = []
        for rdn in rdns {
            guard rdn.identifier == .set, case .constructed(let pairs) = rdn.content else { return nil }
            var attributes: [Attribute] = []
            var rdnContent: [UInt8] = []
            var rdnChanged = false
            for pair in pairs {
                guard pair.identifier == .sequence, case .constructed(let parts) = pair.content else { return nil }
                let items = Array(parts)
                guard items.count == 2, let type = try? ASN1ObjectIdentifier(derEncoded: items[0]),
                    let tag = items[1].encodedBytes.first
                else { return nil }
                let value = items[1]
                let content: [UInt8] =
                    switch value.content {
                    case .primitive(let bytes): Array(bytes)
                    case .constructed(let children): children.flatMap { Array($0.encodedBytes) }
                    }
                attributes.append(Attribute(type: type, tag: tag, content: content))
                if tag == 0x13, case .primitive(let bytes) = value.content {
                    let folded = Self.normalizedPrintable(Array(bytes))
                    if folded.count != bytes.count || folded != Array(bytes) {
                        let typeBytes = Array(items[0].encodedBytes)
                        let valueTLV = Self.encode(tag: 0x13, folded)
                        rdnContent +=
                            folded.count == bytes.count
                            ? Self.replacingContent(of: pair, with: typeBytes + valueTLV)
                            : Self.encode(tag: 0x30, typeBytes + valueTLV)
                        rdnChanged = rdnChanged || folded.count != bytes.count
                        continue
                    }
                }
                rdnContent += pair.encodedBytes
            }
            guard !attributes.isEmpty else { return nil }
            relativeNames.append(attributes)
            guard relativeNames.count < 1024 else { return nil }
            normalized += rdnChanged ? Self.encode(tag: 0x31, rdnContent) : Self.replacingContent(of: rdn, with: rdnContent)
        }
        self.relativeNames = relativeNames
        self.normalizedContent = normalized
    }

    /// The normalized content of the `Name` in `der` (tag and length included): what Apple keeps as a
    /// certificate's `issr`/`subj` attribute and wraps in a `SEQUENCE` for `SecCertificateCopyNormalized…Sequence`.
    ///
    /// Apple's rules (`createNormalizedX501Name`, after RFC 5280's comparison of `PrintableString`s):
    /// - only values encoded as `PrintableString` change; every other string type is kept byte for byte;
    /// - ASCII `a`–`z` become `A`–`Z`; no other byte changes;
    /// - blanks (space and tab, C's `isblank`) are removed at the start and the end, and every run of them inside
    ///   becomes one space;
    /// - the lengths of the value, its `AttributeTypeAndValue` and its RDN `SET` are re-encoded (shortest form)
    ///   when the value got shorter; everything else keeps its original bytes;
    /// - the result is the RDN sequence's content, without the outer `SEQUENCE` tag and length.
    public static func normalizedContent(of der: [UInt8]) -> [UInt8]? {
        X501Name(der: der)?.normalizedContent
    }

    /// A `PrintableString`'s content folded by Apple's rules (upper case, blanks collapsed and trimmed).
    static func normalizedPrintable(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var lastWasBlank = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x09 {
                if lastWasBlank { continue }
                if !result.isEmpty { result.append(0x20) }
                lastWasBlank = true
            } else {
                lastWasBlank = false
                result.append((0x61...0x7A).contains(byte) ? byte - 0x20 : byte)
            }
        }
        if lastWasBlank, !result.isEmpty { result.removeLast() }
        return result
    }

    /// `tag`, the DER length of `content` (shortest form) and `content`.
    public static func encode(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var header: [UInt8] = [tag]
        if content.count < 0x80 {
            header.append(UInt8(content.count))
        } else {
            var length = content.count
            var digits: [UInt8] = []
            while length > 0 {
                digits.insert(UInt8(length & 0xFF), at: 0)
                length >>= 8
            }
            header.append(0x80 | UInt8(digits.count))
            header += digits
        }
        return header + content
    }

    /// `node`'s own tag and length bytes followed by `content` (which has `node`'s content length).
    private static func replacingContent(of node: ASN1Node, with content: [UInt8]) -> [UInt8] {
        Array(node.encodedBytes.prefix(node.encodedBytes.count - content.count)) + content
    }
}
