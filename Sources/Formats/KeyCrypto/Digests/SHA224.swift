import Crypto

/// SHA-224 (FIPS 180-4): the SHA-256 compression with its own initial values, the digest cut to 28 bytes.
/// swift-crypto has none; Apple's algorithms use it for ECDSA message digests and the X9.63 KDF.
///
/// The state lives in a context that is copied on write and zeroized when released, because in a KDF the
/// pending input is a shared secret.
struct SHA224: HashFunction {
    static let blockByteCount = 64
    typealias Digest = SHA224Digest

    private var context: SHA224Context

    init() { context = SHA224Context() }

    mutating func update(bufferPointer: UnsafeRawBufferPointer) {
        if !isKnownUniquelyReferenced(&context) { context = context.copy() }
        context.absorb(bufferPointer)
    }

    func finalize() -> SHA224Digest { context.copy().finish() }
}
