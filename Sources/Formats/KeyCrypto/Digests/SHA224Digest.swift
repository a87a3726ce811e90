import Crypto

/// A SHA-224 digest (28 bytes), the output of ``SHA224``.
struct SHA224Digest: Digest {
    static let byteCount = 28

    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        precondition(bytes.count == Self.byteCount)
        self.bytes = bytes
    }

    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes(body)
    }

    static func == (lhs: SHA224Digest, rhs: SHA224Digest) -> Bool { lhs.bytes == rhs.bytes }

    func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
