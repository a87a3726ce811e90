import Foundation
import KeychainModel

/// A private key as PKCS#8 `PrivateKeyInfo` (RFC 5208; RFC 5915 for EC keys) in PEM (`-----BEGIN PRIVATE KEY-----`),
/// what `openssl pkey` reads and `openssl genpkey` writes, made from the key's external representation
/// (`SecKeyCopyExternalRepresentation`: X9.63 `04‖X‖Y‖K` for EC, PKCS#1 `RSAPrivateKey` DER for RSA, the 32-byte
/// seed for Ed25519).
///
/// The bytes are written into buffers of exactly their size (no copy is left behind by a growing array), handed to
/// the caller's closure, then zeroized and freed. EC keys carry their curve in the algorithm identifier and their
/// public key in the `ECPrivateKey`, as OpenSSL writes them.
public enum PrivateKeyInfo {
    /// Calls `body` with the PEM of the private key in `externalRepresentation`, then zeroizes it.
    ///
    /// - Throws: ``KeyCryptoError`` with `errSecParam` when the bytes are no EC private key on P-256, P-384 or P-521
    ///   (by their length) or are empty; RSA bytes are wrapped as they are. Errors `body` throws are rethrown.
    public static func withPEM<Result>(
        externalRepresentation key: UnsafeRawBufferPointer, type: KeyType, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        try withDER(externalRepresentation: key, type: type) { der in
            let header = Array("-----BEGIN PRIVATE KEY-----\n".utf8)
            let footer = Array("-----END PRIVATE KEY-----\n".utf8)
            let encodedCount = (der.count + 2) / 3 * 4
            let lineCount = (encodedCount + 63) / 64
            return try withZeroizedBuffer(count: header.count + encodedCount + lineCount + footer.count) { pem in
                var writer = ByteWriter(pem)
                writer.append(header)
                Base64Lines.encode(der, into: &writer)
                writer.append(footer)
                return try body(UnsafeRawBufferPointer(pem))
            }
        }
    }

    /// Calls `body` with the `PrivateKeyInfo` DER of the private key in `externalRepresentation`, then zeroizes it.
    public static func withDER<Result>(
        externalRepresentation key: UnsafeRawBufferPointer, type: KeyType, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        switch type {
        case .rsa: return try rsa(key, body)
        case .ellipticCurve: return try ellipticCurve(key, body)
        case .ed25519: return try ed25519(key, body)
        }
    }

    /// `id-Ed25519` (1.3.101.112, RFC 8410), tag and length included.
    private static let ed25519Algorithm: [UInt8] = [0x06, 0x03, 0x2B, 0x65, 0x70]

    /// `SEQUENCE { 0, { id-Ed25519 }, OCTET STRING (OCTET STRING seed) }` (RFC 8410 §7), as OpenSSL writes it.
    private static func ed25519<Result>(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        guard key.count == 32 else { throw KeyCryptoError.param("no Ed25519 private key is \(key.count) bytes long") }
        let inner = DER.size(contentCount: key.count)
        let content = versionZero.count + DER.size(contentCount: ed25519Algorithm.count) + DER.size(contentCount: inner)
        return try withZeroizedBuffer(count: DER.size(contentCount: content)) { buffer in
            var writer = ByteWriter(buffer)
            writer.header(0x30, content)
            writer.append(versionZero)
            writer.header(0x30, ed25519Algorithm.count)
            writer.append(ed25519Algorithm)
            writer.header(0x04, inner)
            writer.header(0x04, key.count)
            writer.append(key)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// `id-ecPublicKey` (1.2.840.10045.2.1), tag and length included.
    private static let ecPublicKey: [UInt8] = [0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01]
    /// `rsaEncryption` (1.2.840.113549.1.1.1) and its `NULL` parameters.
    private static let rsaAlgorithm: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01, 0x05, 0x00]
    /// `version 0` of `PrivateKeyInfo`.
    private static let versionZero: [UInt8] = [0x02, 0x01, 0x00]

    /// The named curve's OID for a coordinate of `size` bytes: P-256, P-384, P-521.
    private static func curve(coordinateSize size: Int) -> [UInt8]? {
        switch size {
        case 32: [0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07]
        case 48: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x22]
        case 66: [0x06, 0x05, 0x2B, 0x81, 0x04, 0x00, 0x23]
        default: nil
        }
    }

    /// `SEQUENCE { 0, { rsaEncryption, NULL }, OCTET STRING RSAPrivateKey }`.
    private static func rsa<Result>(_ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result) throws -> Result {
        guard !key.isEmpty else { throw KeyCryptoError.param("no RSA private key is empty") }
        let algorithm = DER.size(contentCount: rsaAlgorithm.count)
        let content = versionZero.count + algorithm + DER.size(contentCount: key.count)
        return try withZeroizedBuffer(count: DER.size(contentCount: content)) { buffer in
            var writer = ByteWriter(buffer)
            writer.header(0x30, content)
            writer.append(versionZero)
            writer.header(0x30, rsaAlgorithm.count)
            writer.append(rsaAlgorithm)
            writer.header(0x04, key.count)
            writer.append(key)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// `SEQUENCE { 0, { id-ecPublicKey, curve }, OCTET STRING ECPrivateKey }`, where `ECPrivateKey` is
    /// `SEQUENCE { 1, OCTET STRING K, [1] BIT STRING 04‖X‖Y }`.
    private static func ellipticCurve<Result>(
        _ key: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Result
    ) throws -> Result {
        let size = (key.count - 1) / 3
        guard key.count == 1 + 3 * size, key.first == 0x04, let curve = curve(coordinateSize: size) else {
            throw KeyCryptoError.param("no EC private key on P-256, P-384 or P-521 is \(key.count) bytes long")
        }
        let point = UnsafeRawBufferPointer(rebasing: key[0..<(1 + 2 * size)])
        let scalar = UnsafeRawBufferPointer(rebasing: key[(1 + 2 * size)...])
        let bitString = 1 + point.count
        let publicKey = DER.size(contentCount: bitString)
        let ecContent = 3 + DER.size(contentCount: scalar.count) + DER.size(contentCount: publicKey)
        let ecPrivateKey = DER.size(contentCount: ecContent)
        let algorithmContent = ecPublicKey.count + curve.count
        let content = versionZero.count + DER.size(contentCount: algorithmContent) + DER.size(contentCount: ecPrivateKey)
        return try withZeroizedBuffer(count: DER.size(contentCount: content)) { buffer in
            var writer = ByteWriter(buffer)
            writer.header(0x30, content)
            writer.append(versionZero)
            writer.header(0x30, algorithmContent)
            writer.append(ecPublicKey)
            writer.append(curve)
            writer.header(0x04, ecPrivateKey)
            writer.header(0x30, ecContent)
            writer.append([0x02, 0x01, 0x01])
            writer.header(0x04, scalar.count)
            writer.append(scalar)
            writer.header(0xA1, publicKey)
            writer.header(0x03, bitString)
            writer.append([0x00])
            writer.append(point)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    /// Calls `body` with a buffer of `count` bytes, zeroized and freed afterwards (also when `body` throws).
    private static func withZeroizedBuffer<Result>(
        count: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> Result
    ) rethrows -> Result {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        defer {
            buffer.zeroize()
            buffer.deallocate()
        }
        return try body(buffer)
    }
}

/// DER's definite lengths (X.690 §8.1.3).
private enum DER {
    /// The bytes a TLV with `contentCount` bytes of content takes.
    static func size(contentCount: Int) -> Int { 1 + lengthSize(contentCount) + contentCount }

    /// The bytes of the length field for `count`.
    static func lengthSize(_ count: Int) -> Int {
        guard count >= 0x80 else { return 1 }
        var digits = 0
        var rest = count
        while rest > 0 {
            digits += 1
            rest >>= 8
        }
        return 1 + digits
    }
}

/// Appends bytes into a buffer sized in advance.
private struct ByteWriter {
    let buffer: UnsafeMutableRawBufferPointer
    private(set) var offset = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }

    mutating func append(_ byte: UInt8) {
        buffer[offset] = byte
        offset += 1
    }

    mutating func append(_ bytes: [UInt8]) {
        for byte in bytes { append(byte) }
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (buffer.baseAddress! + offset).copyMemory(from: source, byteCount: bytes.count)
        offset += bytes.count
    }

    /// A tag and the definite length `count`.
    mutating func header(_ tag: UInt8, _ count: Int) {
        append(tag)
        guard count >= 0x80 else { return append(UInt8(count)) }
        let digits = DER.lengthSize(count) - 1
        append(0x80 | UInt8(digits))
        for index in stride(from: digits - 1, through: 0, by: -1) { append(UInt8(truncatingIfNeeded: count >> (8 * index))) }
    }
}

/// Base64 (RFC 4648) in lines of 64 characters, each ended by a newline, as PEM wants it.
private enum Base64Lines {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: UnsafeRawBufferPointer, into writer: inout ByteWriter) {
        var column = 0
        func emit(_ character: UInt8, _ writer: inout ByteWriter) {
            writer.append(character)
            column += 1
            if column == 64 {
                writer.append(0x0A)
                column = 0
            }
        }
        var index = 0
        while index < bytes.count {
            let first = bytes[index]
            let second = index + 1 < bytes.count ? bytes[index + 1] : 0
            let third = index + 2 < bytes.count ? bytes[index + 2] : 0
            emit(alphabet[Int(first >> 2)], &writer)
            emit(alphabet[Int((first & 0x03) << 4 | second >> 4)], &writer)
            emit(index + 1 < bytes.count ? alphabet[Int((second & 0x0F) << 2 | third >> 6)] : UInt8(ascii: "="), &writer)
            emit(index + 2 < bytes.count ? alphabet[Int(third & 0x3F)] : UInt8(ascii: "="), &writer)
            index += 3
        }
        if column != 0 { writer.append(0x0A) }
    }
}
