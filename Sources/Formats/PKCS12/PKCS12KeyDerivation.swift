import KeychainModel

/// RFC 7292 appendix B.2: the PKCS#12 key derivation, which the legacy PBE algorithms use for keys and IVs and the
/// classic MAC for its key.
enum PKCS12KeyDerivation {
    /// What the bytes are for (the diversifier ID).
    enum Purpose: UInt8 {
        case key = 1
        case iv = 2
        case mac = 3
    }

    /// `count` bytes for `purpose`, from `password`, `salt` and `iterations` rounds of `digest`, paid from `budget`.
    static func derive(
        _ purpose: Purpose, password: KDFPassword, salt: ArraySlice<UInt8>, iterations: Int, count: Int, digest: PKCS12Digest,
        budget: PKCS12WorkBudget
    ) throws(PKCS12Error) -> SecretBytes {
        guard iterations >= 1, iterations <= PKCS12Limits.maximumIterations else {
            throw .malformed("iteration count \(iterations) is out of bounds (1…\(PKCS12Limits.maximumIterations))")
        }
        guard salt.count <= PKCS12Limits.maximumSaltLength else { throw .malformed("the salt is \(salt.count) bytes long") }
        try budget.spend(iterations: iterations, outputBytes: count, digestSize: digest.outputSize)
        let v = digest.blockSize
        let u = digest.outputSize
        // I = S' ‖ P': salt and password each repeated to a whole number of v-byte blocks (none when empty).
        var input = salt.withUnsafeBytes { repeatedToBlocks($0, blockSize: v) }
        var passwordBlocks = password.withUnsafeBytes { repeatedToBlocks($0, blockSize: v) }
        input += passwordBlocks
        passwordBlocks.zeroize()
        defer { input.zeroize() }
        var hashInput = [UInt8](repeating: purpose.rawValue, count: v) + input
        defer { hashInput.zeroize() }
        var blockB = [UInt8](repeating: 0, count: v)
        defer { blockB.zeroize() }

        return SecretBytes(capacity: count) { output in
            var written = 0
            while written < count {
                // A = H^r(D ‖ I).
                var a = hashInput.withUnsafeBytes { digest.hash($0) }
                for _ in 1..<iterations {
                    let next = a.withUnsafeBytes { digest.hash($0) }
                    a.zeroize()
                    a = next
                }
                let take = Swift.min(u, count - written)
                for index in 0..<take { output[written + index] = a[index] }
                written += take
                if written < count {
                    // B = A repeated to v bytes; each v-byte block of I becomes (I_j + B + 1) mod 2^(8v).
                    for index in 0..<v { blockB[index] = a[index % u] }
                    var offset = 0
                    while offset < input.count {
                        var carry: UInt16 = 1
                        for index in stride(from: v - 1, through: 0, by: -1) {
                            let sum = UInt16(input[offset + index]) + UInt16(blockB[index]) + carry
                            input[offset + index] = UInt8(sum & 0xFF)
                            carry = sum >> 8
                        }
                        offset += v
                    }
                    hashInput.replaceSubrange(v..., with: input)
                }
                a.zeroize()
            }
            return count
        }
    }

    /// `bytes` repeated to the smallest multiple of `blockSize` that holds them (empty when `bytes` is).
    private static func repeatedToBlocks(_ bytes: UnsafeRawBufferPointer, blockSize: Int) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        let length = blockSize * ((bytes.count + blockSize - 1) / blockSize)
        return (0..<length).map { bytes[$0 % bytes.count] }
    }
}
